/**
 * One automaton for all the secrets of a call (Aho–Corasick): a text or a stream is read once,
 * symbol by symbol, whatever the number of secrets, so redaction costs time linear in the output.
 * Symbols are UTF-8 bytes for streams and UTF-16 code units for text. Used by `redact.ts` and
 * `redact_stream.ts`.
 *
 * @module
 */

/** The most edges kept, those remembered after a walk of fail links included (about 10 MiB). */
const MAX_EDGES = 1 << 18;

/** The automaton of a set of secrets, each given as its symbols. */
export class SecretAutomaton {
  /** Edges below the root: `node * alphabet + symbol` → node. */
  readonly #edges = new Map<number, number>();
  /** Set once the fail links are known: from then on a walk of them is remembered. */
  #built = false;
  /** The root's edges for symbols below 256 (0: back to the root); others are in `#edges`. */
  readonly #rootEdges = new Int32Array(256);
  readonly #fail: Int32Array;
  readonly #alphabet: number;
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
   */
  constructor(secrets: readonly ArrayLike<number>[], alphabet: number) {
    this.#alphabet = alphabet;
    const depth = [0];
    const ends = [0];
    const children: number[][] = [[]];
    for (const secret of secrets) {
      let node = 0;
      for (let i = 0; i < secret.length; i++) {
        const symbol = secret[i]!;
        let next = this.#edge(node, symbol);
        if (next === undefined || next === 0) {
          next = depth.length;
          depth.push(depth[node]! + 1);
          ends.push(0);
          children.push([]);
          children[node]!.push(symbol, next);
          if (node === 0 && symbol < 256) this.#rootEdges[symbol] = next;
          else this.#edges.set(node * alphabet + symbol, next);
        }
        node = next;
      }
      ends[node] = Math.max(ends[node]!, secret.length);
    }
    const count = depth.length;
    this.#fail = new Int32Array(count);
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
    this.#built = true;
  }

  /**
   * The node after reading one more symbol.
   *
   * @param node Where the automaton is (0 at the start).
   * @param symbol The symbol read.
   * @returns The next node.
   */
  step(node: number, symbol: number): number {
    let at = node;
    let next = this.#edge(at, symbol);
    while (next === undefined) {
      at = this.#fail[at]!;
      next = this.#edge(at, symbol);
    }
    // Found through fail links: remembered (a table filled as text is read), up to a bound.
    if (at !== node && this.#built && this.#edges.size < MAX_EDGES) {
      this.#edges.set(node * this.#alphabet + symbol, next);
    }
    return next;
  }

  /** The edge from a node on a symbol: the root always has one (to itself when none leaves it). */
  #edge(node: number, symbol: number): number | undefined {
    if (node === 0) {
      return symbol < 256 ? this.#rootEdges[symbol] : this.#edges.get(symbol) ?? 0;
    }
    return this.#edges.get(node * this.#alphabet + symbol);
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
