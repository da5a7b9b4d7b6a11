/**
 * An exclusive lock between processes (and between callers in one process): `flock`-style locking
 * of a sibling lock file, which is never deleted (deleting it would let two writers hold locks on
 * two different files).
 *
 * @module
 */

/**
 * Runs `work` while holding an exclusive lock on `lockPath`, creating the file (mode 0600) if
 * needed. The lock is released when `work` settles, or by the OS if the process dies.
 *
 * @param lockPath The lock file; its directory must exist.
 * @param work What to do under the lock.
 * @returns What `work` returns.
 * @throws What opening the lock file or `work` throws.
 */
export async function withExclusiveLock<T>(lockPath: string, work: () => Promise<T>): Promise<T> {
  const file = await Deno.open(lockPath, { read: true, write: true, create: true, mode: 0o600 });
  try {
    await file.lock(true);
    try {
      return await work();
    } finally {
      await file.unlock();
    }
  } finally {
    file.close();
  }
}
