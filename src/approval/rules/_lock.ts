/**
 * An exclusive lock between processes (and between callers in one process): `flock`-style locking
 * of a sibling lock file, which is never deleted (deleting it would let two writers hold locks on
 * two different files). The wait is bounded: a lock held for longer is reported, never waited on
 * forever.
 *
 * @module
 */

/** How long a writer waits for the lock before giving up. */
export const LOCK_WAIT_MS = 5000;

/** The lock was held by someone else for the whole wait. */
export class LockBusyError extends Error {
  /** The lock file. */
  readonly lockPath: string;
  /** How long was waited, in milliseconds. */
  readonly waitedMs: number;

  /**
   * @param lockPath The lock file.
   * @param waitedMs How long was waited.
   */
  constructor(lockPath: string, waitedMs: number) {
    super(`Lock "${lockPath}" is held by another process`);
    this.name = "LockBusyError";
    this.lockPath = lockPath;
    this.waitedMs = waitedMs;
  }
}

/**
 * Runs `work` while holding an exclusive lock on `lockPath`, creating the file (mode 0600) if
 * needed. The lock is released when `work` settles, or by the OS if the process dies.
 *
 * @param lockPath The lock file; its directory must exist.
 * @param work What to do under the lock.
 * @param waitMs How long to wait for a lock someone else holds. @default LOCK_WAIT_MS
 * @returns What `work` returns.
 * @throws {LockBusyError} When the lock stays held for `waitMs`; what opening the lock file or
 *   `work` throws.
 */
export async function withExclusiveLock<T>(
  lockPath: string,
  work: () => Promise<T>,
  waitMs: number = LOCK_WAIT_MS,
): Promise<T> {
  const file = await Deno.open(lockPath, { read: true, write: true, create: true, mode: 0o600 });
  try {
    const started = performance.now();
    let pause = 5;
    while (!file.tryLockSync(true)) {
      const waited = performance.now() - started;
      if (waited >= waitMs) throw new LockBusyError(lockPath, Math.round(waited));
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, waitMs - waited)));
      pause = Math.min(pause * 2, 100);
    }
    try {
      return await work();
    } finally {
      await file.unlock();
    }
  } finally {
    file.close();
  }
}
