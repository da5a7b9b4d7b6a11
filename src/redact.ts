/**
 * Keeping secrets out of output. The secrets of a call are the values of the tool's manifest `env`
 * but its public ones ({@linkcode secretEnv}) and of the `--env` pairs ({@linkcode callSecrets});
 * a {@linkcode Redactor} built once from them
 * replaces every occurrence of one before text leaves the program through anything basis-tools
 * writes: messages, `--json`, results for a model, spill files, the audit trail, prompts and the
 * program's own streamed output.
 *
 * Every character that belongs to an occurrence of any secret is hidden, and each unbroken run of
 * hidden characters becomes one `[redacted]`: overlapping or adjacent secrets leave no fragment
 * of either behind. One automaton (Aho–Corasick) reads a text or a stream once, whatever the number
 * of secrets: on UTF-16 code units for text, on UTF-8 bytes for streams (so output that is not text
 * passes through untouched but for the secrets in it, and a secret split across two reads is still
 * caught).
 *
 * @module
 */

import { concatBytes } from "./bytes.ts";
import { setOwn } from "./json_text.ts";
import type { Phrase, PhraseParams } from "./locale/messages.ts";

/** What replaces a secret. */
export const REDACTED = "[redacted]";

/**
 * Values shorter than this many characters are not treated as secrets: a value of one to three
 * characters (`1`, `on`, `dev`) would be replaced wherever those characters occur, mangling any
 * text, and hiding it would protect nothing a guess could not find.
 */
export const MIN_SECRET_LENGTH = 4;

/**
 * Whether a value is hidden as a secret: at least {@linkcode MIN_SECRET_LENGTH} characters, not
 * only white space, and not part of `[redacted]` itself (which every redacted text shows anyway).
 *
 * @param value An environment value.
 * @returns True when it is redacted.
 * @example Short values are not secrets
 * ```ts
 * import { isSecret } from "./redact.ts";
 * console.assert(isSecret("abc1") && !isSecret("abc") && !isSecret("    "));
 * ```
 */
export function isSecret(value: string): boolean {
  if (value.length < MIN_SECRET_LENGTH) return false;
  // Two UTF-16 units at most per character: eight units are surely four characters.
  if (value.length < 2 * MIN_SECRET_LENGTH && [...value].length < MIN_SECRET_LENGTH) return false;
  return value.trim() !== "" && !REDACTED.includes(value);
}

/**
 * The secrets of one call: every value of the given environment layers (the tool's manifest `env`,
 * the `--env` pairs) that {@linkcode isSecret}, each once. This is the one definition every part
 * of basis-tools redacts with.
 *
 * @param layers The environment layers whose values are secret.
 * @returns The values to hide.
 * @example The values of a manifest env and the --env pairs
 * ```ts
 * import { callSecrets } from "./redact.ts";
 * const secrets = callSecrets({ TOKEN: "s3cr3t", DEBUG: "1" }, { API_KEY: "k-123456" });
 * console.assert(secrets.join(" ") === "s3cr3t k-123456");
 * ```
 */
export function callSecrets(...layers: readonly Readonly<Record<string, string>>[]): string[] {
  return [...new Set(layers.flatMap((layer) => Object.values(layer)).filter(isSecret))];
}

/**
 * A tool's secret variables: its manifest `env` but those it declares public (configuration, which
 * is shown; a public value may not read a host variable that could hold a secret, see
 * `src/manifest/_expand.ts`). What {@linkcode callSecrets} is given for a tool.
 *
 * @param tool The tool's `env` and the names of its public variables.
 * @returns The pairs whose values are secrets.
 * @example A public variable is not a secret
 * ```ts
 * import { callSecrets, secretEnv } from "./redact.ts";
 * const tool = { env: { TOKEN: "s3cr3t", NOTES_DIR: "/var/tmp/notes" }, publicEnv: ["NOTES_DIR"] };
 * console.assert(callSecrets(secretEnv(tool)).join(" ") === "s3cr3t");
 * ```
 */
export function secretEnv(
  tool: { readonly env: Readonly<Record<string, string>>; readonly publicEnv?: readonly string[] },
): Readonly<Record<string, string>> {
  const open = tool.publicEnv ?? [];
  if (open.length === 0) return tool.env;
  return Object.fromEntries(Object.entries(tool.env).filter(([name]) => !open.includes(name)));
}

/**
 * How many nodes, the shallowest, get a full row of transitions for the first 256 symbols: one
 * lookup a symbol wherever the text is, 1 KiB a node (4 MiB at most). Deeper nodes, which text
 * seldom reaches, follow their edges and fail links.
 */
const DENSE_NODES = 4096;

/** The automaton of a set of secrets, on their UTF-16 code units (text) or their bytes. */
class Automaton {
  /** The trie's edges: `node * 65536 + symbol` → node. */
  readonly #edges = new Map<number, number>();
  readonly #fail: Int32Array;
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

  constructor(secrets: readonly (string | Uint8Array)[]) {
    const depth = [0];
    const ends = [0];
    const children: number[][] = [[]];
    for (const secret of secrets) {
      let node = 0;
      for (let i = 0; i < secret.length; i++) {
        const symbol = typeof secret === "string" ? secret.charCodeAt(i) : secret[i]!;
        const key = node * 65536 + symbol;
        let next = this.#edges.get(key);
        if (next === undefined) {
          next = depth.length;
          depth.push(depth[node]! + 1);
          ends.push(0);
          children.push([]);
          children[node]!.push(symbol, next);
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
    // its children's, and, being shallower, has its row (if any) filled before the node's.
    const rows = Math.min(count, DENSE_NODES);
    this.#dense = new Int32Array(rows * 256);
    const queue = [0];
    for (let head = 0; head < queue.length; head++) {
      const node = queue[head]!;
      const edges = children[node]!;
      if (head < rows) {
        const from = this.#row[this.#fail[node]!]! * 256;
        if (node !== 0) this.#dense.copyWithin(head * 256, from, from + 256);
        for (let k = 0; k < edges.length; k += 2) {
          if (edges[k]! < 256) this.#dense[head * 256 + edges[k]!] = edges[k + 1]!;
        }
        this.#row[node] = head;
      }
      for (let k = 0; k < edges.length; k += 2) {
        const child = edges[k + 1]!;
        const fail = node === 0 ? 0 : this.#step(this.#fail[node]!, edges[k]!);
        this.#fail[child] = fail;
        this.match[child] = Math.max(ends[child]!, this.match[fail]!);
        this.hold[child] = children[child]!.length > 0 ? depth[child]! : this.hold[fail]!;
        queue.push(child);
      }
    }
  }

  /** The node after reading one more symbol. */
  #step(node: number, symbol: number): number {
    for (;;) {
      const row = this.#row[node]!;
      if (row >= 0 && symbol < 256) return this.#dense[row * 256 + symbol]!;
      const next = this.#edges.get(node * 65536 + symbol);
      if (next !== undefined) return next;
      if (node === 0) return 0;
      node = this.#fail[node]!;
    }
  }

  /**
   * Reads `input[from..to)` from `node` and records where secrets occur: `spans` (flat
   * `start, end` pairs, end exclusive, in order) gets the runs of hidden symbols, a run that
   * touches or overlaps the last one merged into it. Returns the node after the last symbol.
   */
  scan(input: ArrayLike<number>, from: number, to: number, node: number, spans: number[]): number {
    for (let i = from; i < to; i++) {
      node = this.#step(node, input[i]!);
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

/** `JSON.isRawJSON` (ES2025, in V8): a number kept as its own text by `parseKeepingNumbers`. */
const isRawJSON = (JSON as unknown as { isRawJSON(value: unknown): boolean }).isRawJSON;
const encoder = new TextEncoder();
const TOKEN = encoder.encode(REDACTED);
const EMPTY = new Uint8Array(0);

/** Up to how many secrets a text is searched for each before the automaton is built. */
const FEW = 8;

/**
 * The secrets of one call and every way of hiding them, built once a call: in text, in JSON-like
 * values, in phrases and in byte streams. The automata are built on first use.
 *
 * @example Hide a token in text and in a value
 * ```ts
 * import { Redactor } from "./redact.ts";
 * const redactor = new Redactor(["abc123"]);
 * console.assert(redactor.text("token=abc123") === "token=[redacted]");
 * console.assert(JSON.stringify(redactor.value({ t: "abc123" })) === '{"t":"[redacted]"}');
 * ```
 */
export class Redactor {
  /** The values hidden: each secret once, in the order given. */
  readonly secrets: readonly string[];
  #units: Automaton | undefined;
  #bytes: Automaton | undefined;

  /**
   * Prepares the redactor of one call.
   *
   * @param values The values to hide (see {@linkcode callSecrets}); those that are not secrets
   *   (too short, blank) are ignored.
   */
  constructor(values: Iterable<string>) {
    this.secrets = [...new Set([...values].filter(isSecret))];
  }

  /** Whether there is anything to hide. */
  get active(): boolean {
    return this.secrets.length > 0;
  }

  /**
   * Replaces every occurrence of each secret in a text.
   *
   * @param text The text to clean.
   * @returns The text with each run of secret characters replaced by `[redacted]`.
   */
  text(text: string): string {
    if (!this.active || text === "") return text;
    // A few secrets and none in the text (the common case): nothing to scan for. The check is
    // exact: the scan replaces occurrences only.
    if (this.secrets.length <= FEW && !this.secrets.some((secret) => text.includes(secret))) {
      return text;
    }
    this.#units ??= new Automaton(this.secrets);
    const codes = new Uint16Array(text.length);
    for (let i = 0; i < text.length; i++) codes[i] = text.charCodeAt(i);
    const spans: number[] = [];
    this.#units.scan(codes, 0, codes.length, 0, spans);
    let out = "";
    let at = 0;
    for (let k = 0; k < spans.length; k += 2) {
      out += text.slice(at, spans[k]) + REDACTED;
      at = spans[k + 1]!;
    }
    return at === 0 ? text : out + text.slice(at);
  }

  /**
   * A phrase with every secret replaced in its text placeholders, nested phrases' too.
   *
   * @param phrase The phrase.
   * @returns The redacted phrase (the same object when there is nothing to hide).
   */
  phrase(phrase: Phrase): Phrase {
    if (phrase.params === undefined || !this.active) return phrase;
    const params: Record<string, PhraseParams[string]> = {};
    for (const [name, value] of Object.entries(phrase.params)) {
      params[name] = typeof value === "string"
        ? this.text(value)
        : typeof value === "number" || "forms" in value
        ? value
        : this.phrase(value);
    }
    return { key: phrase.key, params };
  }

  /**
   * Copies a JSON-like value with every secret hidden, without recursion (an input of any depth
   * cannot exhaust the stack): in strings and keys it is replaced as in {@linkcode Redactor.text};
   * a number or boolean whose text holds one (an `env` value of `8080` and an input
   * `{"port": 8080}`) becomes the string `[redacted]`. A value met again inside itself (a cycle,
   * which JSON cannot hold) is recorded as `"[circular]"`.
   *
   * @param value A JSON-like value (raw JSON numbers included).
   * @returns A copy of plain objects and arrays (a `"__proto__"` key stays a key), secrets hidden.
   */
  value(value: unknown): unknown {
    const frames: {
      source: object;
      entries: readonly [key: string, value: unknown][];
      target: Record<string, unknown> | unknown[];
      next: number;
    }[] = [];
    const open = new Set<object>();
    const hidden = (text: string) => this.text(text) !== text;
    const copy = (item: unknown): unknown => {
      if (typeof item === "string") return this.text(item);
      if (typeof item === "number" || typeof item === "boolean") {
        return hidden(String(item)) ? REDACTED : item;
      }
      if (item === null || typeof item !== "object") return item;
      if (isRawJSON(item)) return hidden((item as { rawJSON: string }).rawJSON) ? REDACTED : item;
      if (open.has(item)) return "[circular]";
      open.add(item);
      const target = Array.isArray(item) ? [] : {};
      const entries = Array.isArray(item)
        ? Array.from(item, (v, i) => [String(i), v] as [string, unknown])
        : Object.entries(item);
      frames.push({ source: item, entries, target, next: 0 });
      return target;
    };
    const root = copy(value);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]!;
      if (frame.next >= frame.entries.length) {
        open.delete(frame.source);
        frames.pop();
        continue;
      }
      const [key, item] = frame.entries[frame.next++]!;
      // Defined, not assigned: a key "__proto__" stays a key and never sets a prototype.
      if (Array.isArray(frame.target)) frame.target.push(copy(item));
      else setOwn(frame.target, this.text(key), copy(item));
    }
    return root;
  }

  /**
   * A redactor for one byte stream (a program's stdout or stderr), with the same rule.
   *
   * @returns A fresh stream redactor.
   */
  stream(): StreamRedactor {
    if (this.active) this.#bytes ??= new Automaton(this.secrets.map((s) => encoder.encode(s)));
    return new StreamRedactor(this.#bytes);
  }
}

/**
 * Replaces secrets in a stream of byte chunks, as {@linkcode Redactor.text} does in text. Only what
 * could still turn out to be the start of a secret is held back: the longest tail of what was read
 * that is the beginning of some secret, at most the longest secret's length less one byte;
 * everything before it goes out at once, so a prompt or a progress line is never delayed unless it
 * ends in what looks like the start of a secret. Made by {@linkcode Redactor.stream}.
 *
 * @example Catch a secret split across two chunks
 * ```ts
 * import { Redactor } from "./redact.ts";
 * const redactor = new Redactor(["s3cr3t"]).stream();
 * const encoder = new TextEncoder();
 * const parts = [
 *   redactor.push(encoder.encode("token=s3c")),
 *   redactor.push(encoder.encode("r3t\n")),
 *   redactor.flush(),
 * ];
 * const text = parts.map((part) => new TextDecoder().decode(part)).join("");
 * console.assert(text === "token=[redacted]\n");
 * ```
 */
export class StreamRedactor {
  readonly #automaton: Automaton | undefined;
  /** Where the automaton is after the bytes read so far. */
  #node = 0;
  /** Bytes read but not yet given out: what may still be the start of a secret. */
  #held: Uint8Array = EMPTY;
  /** The runs of hidden bytes in `#held` (flat `start, end` pairs). */
  #spans: number[] = [];
  /** Whether the last byte given out was hidden (a run that goes on adds no second token). */
  #lastHidden = false;

  /** @param automaton The secrets' automaton over bytes; `undefined` when there are none. */
  constructor(automaton: Automaton | undefined) {
    this.#automaton = automaton;
  }

  /**
   * Takes the next chunk and gives back what may go out now.
   *
   * @param chunk Bytes as read.
   * @returns The bytes to pass on (possibly empty; the chunk itself when nothing was hidden or held).
   */
  push(chunk: Uint8Array): Uint8Array {
    const automaton = this.#automaton;
    if (automaton === undefined) return chunk;
    if (chunk.length === 0) return EMPTY;
    const held = this.#held.length;
    const buffer = held === 0 ? chunk : concatBytes([this.#held, chunk]);
    this.#node = automaton.scan(buffer, held, buffer.length, this.#node, this.#spans);
    return this.#giveOut(buffer, buffer.length - automaton.hold[this.#node]!);
  }

  /**
   * Ends the stream: gives back what was held, redacted.
   *
   * @returns The last bytes to pass on.
   */
  flush(): Uint8Array {
    return this.#held.length === 0 ? EMPTY : this.#giveOut(this.#held, this.#held.length);
  }

  /** Gives out `buffer[..cut]`, each hidden run as one token, and keeps the rest. */
  #giveOut(buffer: Uint8Array, cut: number): Uint8Array {
    const parts: Uint8Array[] = [];
    const kept: number[] = [];
    let at = 0;
    let hiddenAtCut = false;
    const spans = this.#spans;
    for (let k = 0; k < spans.length; k += 2) {
      const start = spans[k]!;
      const end = spans[k + 1]!;
      if (start >= cut) {
        kept.push(start - cut, end - cut);
        continue;
      }
      if (start > at) parts.push(buffer.subarray(at, start));
      // A run at the very start that goes on from what was given out has its token already.
      if (!(start === 0 && this.#lastHidden)) parts.push(TOKEN);
      at = Math.min(end, cut);
      hiddenAtCut = end >= cut;
      if (end > cut) kept.push(0, end - cut);
    }
    if (at < cut) {
      parts.push(buffer.subarray(at, cut));
      hiddenAtCut = false;
    }
    if (cut > 0) this.#lastHidden = hiddenAtCut;
    this.#held = cut === buffer.length ? EMPTY : buffer.slice(cut);
    this.#spans = kept;
    return parts.length === 0 ? EMPTY : concatBytes(parts);
  }
}

/**
 * The redactors of the sets of secrets {@linkcode redactorOf} was given, by their values: callers
 * build a fresh array for each tool (`list` of 100 tools sharing one token built 100 automata), and
 * a value never holds NUL. A few sets at most, so a long-running server does not keep every one.
 */
const redactors = new Map<string, Redactor>();
const MAX_REDACTORS = 32;

/**
 * The redactor of a set of secret values, built once per set of values.
 *
 * @param secrets The values to hide.
 * @returns Its redactor.
 * @example Hide a token in text, and a number that is a secret
 * ```ts
 * import { redactorOf } from "./redact.ts";
 * console.assert(redactorOf(["abc123"]).text("token=abc123") === "token=[redacted]");
 * const out = redactorOf(["8080"]).value({ port: 8080, host: "db-8080.local" });
 * console.assert(JSON.stringify(out) === '{"port":"[redacted]","host":"db-[redacted].local"}');
 * ```
 */
export function redactorOf(secrets: readonly string[]): Redactor {
  const key = secrets.join("\0");
  let found = redactors.get(key);
  if (found === undefined) {
    if (redactors.size >= MAX_REDACTORS) redactors.clear();
    redactors.set(key, found = new Redactor(secrets));
  }
  return found;
}
