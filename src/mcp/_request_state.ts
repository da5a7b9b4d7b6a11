/**
 * The `requestState` of an approval asked through MCP 2026-07-28's multi-round-trip results
 * (`input_required`). The client echoes it back with the person's answer, and it is attacker
 * controlled: it carries nothing of the call (a nonce and an expiry), and its MAC, HMAC-SHA-256
 * under a key made when the server starts and never shown, covers the exact call it was made for
 * (the approval request: tool, program, argv, cwd, the environment's names and values, the
 * sandbox grants, the input as the program gets it) and its secrets. So an answer approves only
 * the call it was asked about, once, before it expires, on this server: replayed on another call,
 * tampered with, expired, used twice or made by another server, it approves nothing. Private to
 * the MCP binding.
 *
 * The TypeScript SDK's v2 `createRequestStateCodec` is the same idea; importing it loads the whole
 * v2 server and a second zod (about 70 ms at start and 0.8 MB of bundle) for these few lines.
 *
 * @module
 */

import type { PromptRequest } from "../approval/terminal/types.ts";

/** How long an approval question may wait for its answer (as long as an elicitation). */
export const STATE_TTL_MS = 600_000;

/** What a state is worth for one call. */
export type StateVerdict = "valid" | "malformed" | "forged" | "expired" | "used";

const PREFIX = "b1.";
const LABEL = "basis-tools/mcp/approval/v1";
const ENCODER = new TextEncoder();

/** Makes and checks the states of one server (its key lives as long as the server). */
export class RequestStates {
  readonly #key: Promise<CryptoKey>;
  /** The nonces already answered, with their expiry (forgotten once expired). */
  readonly #used = new Map<string, number>();
  readonly #ttlMs: number;
  readonly #now: () => number;

  /**
   * Makes a fresh key.
   *
   * @param options How long a state lasts, and the clock (for tests).
   */
  constructor(options: { ttlMs?: number; now?: () => number } = {}) {
    this.#ttlMs = options.ttlMs ?? STATE_TTL_MS;
    this.#now = options.now ?? Date.now;
    this.#key = crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
      "verify",
    ]) as Promise<CryptoKey>;
  }

  /**
   * The state of a question about one call.
   *
   * @param binding What the answer may approve ({@linkcode approvalBinding}).
   * @returns The opaque state.
   */
  async mint(binding: string): Promise<string> {
    const nonce = base64url(crypto.getRandomValues(new Uint8Array(16)));
    const body = base64url(
      ENCODER.encode(JSON.stringify({ n: nonce, e: this.#now() + this.#ttlMs })),
    );
    const mac = await crypto.subtle.sign("HMAC", await this.#key, signed(body, binding));
    return `${PREFIX}${body}.${base64url(new Uint8Array(mac))}`;
  }

  /**
   * Checks a state the client sent back against the call it comes with; a valid one is used up.
   *
   * @param state What the client sent as `requestState`.
   * @param binding The call now ({@linkcode approvalBinding}).
   * @returns `valid`, or why it approves nothing.
   */
  async verify(state: unknown, binding: string): Promise<StateVerdict> {
    if (typeof state !== "string" || !state.startsWith(PREFIX)) return "malformed";
    const [body, mac, ...rest] = state.slice(PREFIX.length).split(".");
    const bytes = body === undefined || mac === undefined || rest.length > 0
      ? undefined
      : unbase64url(mac);
    if (bytes === undefined) return "malformed";
    const key = await this.#key;
    if (!await crypto.subtle.verify("HMAC", key, bytes, signed(body!, binding))) return "forged";
    const { n: nonce, e: expires } = JSON.parse(new TextDecoder().decode(unbase64url(body!)));
    const now = this.#now();
    for (const [old, until] of this.#used) if (until <= now) this.#used.delete(old);
    if (!(expires > now)) return "expired";
    if (this.#used.has(nonce)) return "used";
    this.#used.set(nonce, expires);
    return "valid";
  }
}

/**
 * What an answer approves: the approval request as the person is shown it and the rules are asked
 * about it (the preview, the exact stdin, the manifest's env, what a rule pins), and the call's
 * secrets, as one canonical text. It goes into the MAC only, never onto the wire.
 *
 * @param prompt The question.
 * @param secrets The call's secrets (its env and `--env` values).
 * @returns The text.
 */
export function approvalBinding(prompt: PromptRequest, secrets: readonly string[]): string {
  return canonical({ prompt, secrets: [...secrets].sort() });
}

function signed(body: string, binding: string): Uint8Array<ArrayBuffer> {
  return ENCODER.encode(`${LABEL}\0${body}\0${binding}`);
}

/** JSON with every object's keys sorted, bytes as base64. */
function canonical(value: unknown): string {
  if (value instanceof Uint8Array) return JSON.stringify({ bytes: base64url(value) });
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  const entries = Object.entries(value).filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0);
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(",")}}`;
}

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_")
    .replace(/=+$/, "");
}

/** The bytes of canonical unpadded base64url, else `undefined`. */
function unbase64url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[\w-]*$/.test(text)) return undefined;
  try {
    const bytes = Uint8Array.from(
      atob(text.replaceAll("-", "+").replaceAll("_", "/")),
      (c) => c.charCodeAt(0),
    );
    return base64url(bytes) === text ? bytes : undefined;
  } catch {
    return undefined;
  }
}
