/**
 * Digests that pin a value without storing it: SHA-256 over a random salt's bytes, then the
 * value's UTF-8. Web Crypto (free to load, unlike `node:crypto`), so digests are asynchronous.
 *
 * @module
 */

const encoder = new TextEncoder();

/**
 * The digest of a value under a salt.
 *
 * @param salt 32 lowercase hex digits (16 bytes).
 * @param value The value.
 * @returns 64 lowercase hex digits.
 */
export async function saltedSha256(salt: string, value: string): Promise<string> {
  const saltBytes = new Uint8Array(salt.length / 2);
  for (let i = 0; i < saltBytes.length; i++) {
    saltBytes[i] = parseInt(salt.slice(i * 2, i * 2 + 2), 16);
  }
  const text = encoder.encode(value);
  const data = new Uint8Array(saltBytes.length + text.length);
  data.set(saltBytes);
  data.set(text, saltBytes.length);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", data));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * A fresh salt: 16 random bytes as 32 lowercase hex digits.
 *
 * @returns The salt.
 */
export function newSalt(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * A digest matcher for a value: a fresh salt and the value's digest under it.
 *
 * @param value The value to pin.
 * @returns `{sha256, salt}`.
 */
export async function digestOf(value: string): Promise<{ sha256: string; salt: string }> {
  const salt = newSalt();
  return { sha256: await saltedSha256(salt, value), salt };
}
