/**
 * SHA-256, synchronously: an audit line is written in one synchronous step, and Web Crypto's digest
 * is asynchronous (`node:crypto` costs about 12 ms to load). Private to the audit trail; used only
 * for the rare argument too large to copy.
 *
 * @module
 */

/** The first 32 bits of the fractional parts of the square (`H`) and cube (`K`) roots of primes. */
const PRIMES: number[] = [];
for (let n = 2; PRIMES.length < 64; n++) if (PRIMES.every((p) => n % p !== 0)) PRIMES.push(n);
const fraction = (x: number) => ((x - Math.floor(x)) * 2 ** 32) >>> 0;
const K = new Uint32Array(PRIMES.map((p) => fraction(Math.cbrt(p))));
const H = new Uint32Array(PRIMES.slice(0, 8).map((p) => fraction(Math.sqrt(p))));

const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));

/**
 * The SHA-256 of some bytes.
 *
 * @param data The bytes.
 * @returns 64 lowercase hex digits.
 */
export function sha256Hex(data: Uint8Array): string {
  // The message, a 1 bit, zeros, and its length in bits: a whole number of 64-byte blocks.
  const blocks = Math.ceil((data.length + 9) / 64);
  const padded = new Uint8Array(blocks * 64);
  padded.set(data);
  padded[data.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(data.length / 0x20000000));
  view.setUint32(padded.length - 4, (data.length * 8) >>> 0);
  const h = H.slice();
  const w = new Uint32Array(64);
  for (let block = 0; block < padded.length; block += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(block + i * 4);
    for (let i = 16; i < 64; i++) {
      const a = w[i - 15]!, b = w[i - 2]!;
      const s0 = rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3);
      const s1 = rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10);
      w[i] = w[i - 16]! + s0 + w[i - 7]! + s1;
    }
    let a = h[0]!, b = h[1]!, c = h[2]!, d = h[3]!, e = h[4]!, f = h[5]!, g = h[6]!, k = h[7]!;
    for (let i = 0; i < 64; i++) {
      const t1 = (k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i]! +
        w[i]!) | 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      k = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    [a, b, c, d, e, f, g, k].forEach((value, i) => h[i] = h[i]! + value);
  }
  return Array.from(h, (word) => word.toString(16).padStart(8, "0")).join("");
}
