/**
 * One automaton for all the secrets of a call (Aho–Corasick): a text or a stream is read once,
 * symbol by symbol, whatever the number of secrets, so redaction costs time linear in the output.
 * Symbols are UTF-8 bytes for streams and UTF-16 code units for text. Used by `redact.ts` and
 * `redact_stream.ts`.
 *
 * @module
 */

/**
 * How many nodes, the shallowest, get a full row of transitions for the first 256 symbols: one
 * lookup a byte wherever the text is, 1 KiB a node (4 MiB at most). Deeper nodes, which text
 * seldom reaches, follow their edges and fail links.
 */
const DENSE_NODES = 4096;

/** The automaton of a set of secrets, each given as its symbols. */
export class SecretAutomaton {
  /** The trie's edges: `node * alphabet + symbol` → node. */
  readonly #edges = new Map<number, number>();
  readonly #fail: Int32Array;
  readonly #alphabet: number;
  /** Each node's row in `#dense`, or -1. */
  readonly #row: Int32Array;
  /** Full transitions (edges and fail links followed) of the dense nodes for symbols below 256. */
  readonly #dense: Int32Array;
  /** At each node: the length of the longest secret the text read so far ends with (0: none). */
  readonly match: Int32Array;
  /**
   * At each node: how many of the last symbols read may still be the start of a secret (the
   * longest suffix that is a proper prefix of one). Less than the longest secret's length.
   */
  readonly hold: Int32Array;

  /**
   * Builds the automaton.
   *
   * @param secrets Each secret as its symbols (none empty).
   * @param alphabet How many symbols there are: 256 for bytes, 65536 for code units.
   * @param dense Whether the shallowest nodes get full rows (for long streams). @default false
   */
  constructor(secrets: readonly ArrayLike<number>[], alphabet: number, dense = false) {
    this.#alphabet = alphabet;
    const depth = [0];
    const ends = [0];
    const children: number[][] = [[]];
    for (const secret of secrets) {
      let node = 0;
      for (let i = 0; i < secret.length; i++) {
        const key = node * alphabet + secret[i]!;
        let next = this.#edges.get(key);
        if (next === undefined) {
          next = depth.length;
          depth.push(depth[node]! + 1);
          ends.push(0);
          children.push([]);
          children[node]!.push(secret[i]!, next);
          this.#edges.set(key, next);
        }
        node = next;
      }
      ends[node] = Math.max(ends[node]!, secret.length);
    }
    const count = depth.length;
    this.#fail = new Int32Array(count);
    this.#row = new Int32Array(count).fill(-1);
    this.match = new Int32Array(count);
    this.hold = new Int32Array(count);
    // Breadth first: a node's fail link (the longest proper suffix that is a node) is known before
    // its children's.
    const queue = [0];
    for (let head = 0; head < queue.length; head++) {
      const node = queue[head]!;
      const edges = children[node]!;
      for (let k = 0; k < edges.length; k += 2) {
        const symbol = edges[k]!;
        const child = edges[k + 1]!;
        const fail = node === 0 ? 0 : this.step(this.#fail[node]!, symbol);
        this.#fail[child] = fail;
        this.match[child] = Math.max(ends[child]!, this.match[fail]!);
        this.hold[child] = children[child]!.length > 0 ? depth[child]! : this.hold[fail]!;
        queue.push(child);
      }
    }
    // The rows, shallowest first: a fail link is shallower, so its row is filled already.
    const rows = dense ? Math.min(count, DENSE_NODES) : 0;
    this.#dense = new Int32Array(rows * 256);
    for (let row = 0; row < rows; row++) {
      const node = queue[row]!;
      const base = row * 256;
      if (node !== 0) {
        const from = this.#row[this.#fail[node]!]! * 256;
        this.#dense.copyWithin(base, from, from + 256);
      }
      const edges = children[node]!;
      for (let k = 0; k < edges.length; k += 2) {
        if (edges[k]! < 256) this.#dense[base + edges[k]!] = edges[k + 1]!;
      }
      this.#row[node] = row;
    }
  }

  /**
   * The node after reading one more symbol.
   *
   * @param node Where the automaton is (0 at the start).
   * @param symbol The symbol read.
   * @returns The next node.
   */
  step(node: number, symbol: number): number {
    for (;;) {
      const row = this.#row[node]!;
      if (row >= 0 && symbol < 256) return this.#dense[row * 256 + symbol]!;
      const next = this.#edges.get(node * this.#alphabet + symbol);
      if (next !== undefined) return next;
      if (node === 0) return 0;
      node = this.#fail[node]!;
    }
  }

  /**
   * Reads `symbols[from..to)` from `node` and records where secrets occur: every symbol of an
   * occurrence is hidden, and `spans` (flat `start, end` pairs, end exclusive, in order) gets the
   * runs of hidden symbols, a run that touches or overlaps the last one merged into it.
   *
   * @param symbols What is read.
   * @param from The first index to read.
   * @param to The index to stop at.
   * @param node Where the automaton is.
   * @param spans The runs found so far; appended to.
   * @returns The node after the last symbol.
   */
  scan(
    symbols: ArrayLike<number>,
    from: number,
    to: number,
    node: number,
    spans: number[],
  ): number {
    for (let i = from; i < to; i++) {
      node = this.step(node, symbols[i]!);
      const length = this.match[node]!;
      if (length === 0) continue;
      let start = i + 1 - length;
      while (spans.length > 0 && spans[spans.length - 1]! >= start) {
        start = Math.min(start, spans[spans.length - 2]!);
        spans.length -= 2;
      }
      spans.push(start, i + 1);
    }
    return node;
  }
}
