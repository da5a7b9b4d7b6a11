/**
 * Keeping secrets out of output. The secrets of a call are the values of the tool's manifest `env`
 * and of the `--env` pairs ({@linkcode callSecrets}); every occurrence of one is replaced before
 * text leaves the program through anything basis-tools writes: messages, `--json`, results for a
 * model, spill files, the audit trail, prompts and the program's own streamed output.
 *
 * Every character that belongs to an occurrence of any secret is hidden, and each unbroken run of
 * hidden characters becomes one `[redacted]`: overlapping or adjacent secrets leave no fragment
 * of either behind.
 *
 * @module
 */

import type { Phrase, PhraseParams } from "./locale/messages.ts";
import { SecretAutomaton } from "./secret_automaton.ts";

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
  const values = new Set<string>();
  for (const layer of layers) {
    for (const value of Object.values(layer)) if (isSecret(value)) values.add(value);
  }
  return [...values];
}

/**
 * Replaces every occurrence of each secret in a text. Values that are not secrets (too short,
 * blank) are left alone.
 *
 * @param text The text to clean.
 * @param secrets The values to hide (see {@linkcode callSecrets}).
 * @returns The text with each run of secret characters replaced by `[redacted]`.
 * @example Hide a token
 * ```ts
 * import { redact } from "./redact.ts";
 * console.assert(redact("token=abc123", ["abc123"]) === "token=[redacted]");
 * ```
 */
export function redact(text: string, secrets: readonly string[]): string {
  if (secrets.length === 0 || text === "") return text;
  const automaton = textAutomaton(secrets);
  if (automaton === undefined) return text;
  const codes = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i++) codes[i] = text.charCodeAt(i);
  const spans: number[] = [];
  automaton.scan(codes, 0, codes.length, 0, spans);
  if (spans.length === 0) return text;
  let out = "";
  let at = 0;
  for (let k = 0; k < spans.length; k += 2) {
    out += text.slice(at, spans[k]) + REDACTED;
    at = spans[k + 1]!;
  }
  return out + text.slice(at);
}

/** The automaton of each set of secrets redacted with (the same array is usually used again). */
const automata = new WeakMap<readonly string[], SecretAutomaton | undefined>();

/** One automaton over the UTF-16 code units of the secrets; `undefined` when none is a secret. */
function textAutomaton(secrets: readonly string[]): SecretAutomaton | undefined {
  if (automata.has(secrets)) return automata.get(secrets);
  const values = secrets.filter(isSecret).map((secret) =>
    Array.from({ length: secret.length }, (_, i) => secret.charCodeAt(i))
  );
  const automaton = values.length === 0 ? undefined : new SecretAutomaton(values, 65536);
  automata.set(secrets, automaton);
  return automaton;
}

/**
 * A phrase with every secret replaced in its text placeholders, nested phrases' too.
 *
 * @param phrase The phrase.
 * @param secrets The values to hide.
 * @returns The redacted phrase (the same object when there is nothing to hide).
 */
export function redactPhrase(phrase: Phrase, secrets: readonly string[]): Phrase {
  if (phrase.params === undefined || secrets.length === 0) return phrase;
  const params: Record<string, PhraseParams[string]> = {};
  for (const [name, value] of Object.entries(phrase.params)) {
    params[name] = typeof value === "string"
      ? redact(value, secrets)
      : typeof value === "number" || "forms" in value
      ? value
      : redactPhrase(value, secrets);
  }
  return { key: phrase.key, params };
}

/** One array or object being copied: its entries, how far the copy is, and the copy. */
interface Frame {
  readonly source: object;
  readonly entries: readonly [key: string, value: unknown][];
  readonly target: Record<string, unknown> | unknown[];
  next: number;
}

/** `JSON.isRawJSON` (ES2025, in V8): a number kept as its own text by `parseKeepingNumbers`. */
const isRawJSON = (JSON as unknown as { isRawJSON(value: unknown): boolean }).isRawJSON;

/**
 * Copies a JSON-like value with every secret hidden, without recursion (an input of any depth
 * cannot exhaust the stack): in strings and keys it is replaced as in {@linkcode redact}; a number
 * or boolean whose text holds one (an `env` value of `8080` and an input `{"port": 8080}`)
 * becomes the string `[redacted]`. A value met again inside itself (a cycle, which JSON cannot
 * hold) is recorded as `"[circular]"`.
 *
 * @param value A JSON-like value (raw JSON numbers included).
 * @param secrets The values to hide.
 * @returns A copy of plain objects and arrays (a `"__proto__"` key stays a key), secrets hidden.
 * @throws Never.
 * @example A number that is a secret
 * ```ts
 * import { redactValue } from "./redact.ts";
 * const out = redactValue({ port: 8080, host: "db-8080.local" }, ["8080"]);
 * console.assert(JSON.stringify(out) === '{"port":"[redacted]","host":"db-[redacted].local"}');
 * ```
 */
export function redactValue(value: unknown, secrets: readonly string[]): unknown {
  const frames: Frame[] = [];
  const open = new Set<object>();
  const hidden = (text: string) => redact(text, secrets) !== text;
  const copy = (item: unknown): unknown => {
    if (typeof item === "string") return redact(item, secrets);
    if (typeof item === "number" || typeof item === "boolean") {
      return hidden(String(item)) ? REDACTED : item;
    }
    if (item === null || typeof item !== "object") return item;
    if (isRawJSON(item)) {
      return hidden((item as { rawJSON: string }).rawJSON) ? REDACTED : item;
    }
    if (open.has(item)) return "[circular]";
    open.add(item);
    const isArray = Array.isArray(item);
    const target = isArray ? [] : {} as Record<string, unknown>;
    const entries = isArray
      ? [...item.entries()].map(([i, v]) => [String(i), v] as [string, unknown])
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
    if (Array.isArray(frame.target)) frame.target.push(copy(item));
    else {
      // Defined, not assigned: a key "__proto__" stays a key and never sets a prototype.
      Object.defineProperty(frame.target, redact(key, secrets), {
        value: copy(item),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return root;
}
