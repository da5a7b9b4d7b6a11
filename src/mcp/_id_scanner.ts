/**
 * Finding the `id` of a JSON-RPC message too large to parse: the bytes are scanned once as they
 * arrive, keeping only the state of the scan (depth, inside a string or not) and the few bytes of
 * a top-level key or of the `id` value, so that the refusal can carry the id the client waits on.
 * Private to the MCP binding.
 *
 * @module
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** The longest top-level key kept: `id` is two bytes, anything longer is some other key. */
const KEY_BYTES = 8;
/** The longest id kept, in bytes as written; a longer one is answered with `null`. */
const ID_BYTES = 1024;

/** What a byte of an id that is a number may be. */
function isNumberByte(byte: number): boolean {
  return (byte >= 0x30 && byte <= 0x39) || byte === 0x2d || byte === 0x2b || byte === 0x2e ||
    byte === 0x65 || byte === 0x45;
}

/**
 * Scans the bytes of one JSON text for the value of the top-level key `id` (the last one, as
 * `JSON.parse` would keep it). Keys of nested objects are not looked at; a text that is not an
 * object, or an id that is neither a string nor a number, gives `null`.
 */
export class IdScanner {
  #depth = 0;
  #inString = false;
  #escaped = false;
  /** At depth 1, the next string is a key. */
  #expectKey = false;
  /** The bytes of the key or id string being read, when one is kept. */
  #capture: number[] | undefined;
  #capturing: "key" | "string" | "number" | undefined;
  #lastKeyIsId = false;
  #awaitingId = false;
  #topIsObject: boolean | undefined;
  #id: string | number | null = null;

  /** The id found so far: a string, an integer, or `null`. */
  get id(): string | number | null {
    return this.#topIsObject === true ? this.#id : null;
  }

  /**
   * Scans more bytes of the text.
   *
   * @param bytes The next bytes (no newline: the line's end is the text's end).
   */
  feed(bytes: Uint8Array): void {
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[i]!;
      if (this.#inString) {
        this.#stringByte(byte);
        continue;
      }
      if (this.#capturing === "number") {
        if (isNumberByte(byte)) {
          this.#keep(byte);
          continue;
        }
        this.#endNumber();
      }
      this.#structural(byte);
    }
  }

  /** Called at the end of the text: an id that is a number ends there. */
  end(): void {
    if (this.#capturing === "number") this.#endNumber();
  }

  #stringByte(byte: number): void {
    if (this.#escaped) {
      this.#escaped = false;
      this.#keep(byte);
      return;
    }
    if (byte === BACKSLASH) {
      this.#escaped = true;
      this.#keep(byte);
      return;
    }
    if (byte !== QUOTE) {
      this.#keep(byte);
      return;
    }
    this.#inString = false;
    const kind = this.#capturing;
    const bytes = this.#capture;
    this.#capturing = undefined;
    this.#capture = undefined;
    if (kind === "key") {
      this.#lastKeyIsId = bytes !== undefined && bytes.length === 2 && bytes[0] === 0x69 &&
        bytes[1] === 0x64;
    } else if (kind === "string") {
      this.#id = bytes === undefined ? null : decodeString(bytes);
    }
  }

  #structural(byte: number): void {
    const top = this.#depth === 1;
    if (byte === QUOTE) {
      this.#inString = true;
      if (top && this.#expectKey) {
        this.#startCapture("key");
      } else if (top && this.#awaitingId) {
        this.#awaitingId = false;
        this.#startCapture("string");
      }
      return;
    }
    if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (this.#depth === 0) this.#topIsObject ??= byte === OPEN_OBJECT;
      if (top && this.#awaitingId) {
        this.#awaitingId = false;
        this.#id = null;
      }
      this.#depth++;
      if (this.#depth === 1) this.#expectKey = true;
      return;
    }
    if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      this.#depth = Math.max(0, this.#depth - 1);
      return;
    }
    if (!top) return;
    if (byte === COLON) {
      this.#expectKey = false;
      this.#awaitingId = this.#lastKeyIsId;
      this.#lastKeyIsId = false;
    } else if (byte === COMMA) {
      this.#expectKey = true;
      this.#awaitingId = false;
    } else if (this.#awaitingId && isNumberByte(byte)) {
      this.#awaitingId = false;
      this.#startCapture("number");
      this.#keep(byte);
    } else if (this.#awaitingId && byte > 0x20) {
      // null, true, false: not an id.
      this.#awaitingId = false;
      this.#id = null;
    }
  }

  #startCapture(kind: "key" | "string" | "number"): void {
    this.#capturing = kind;
    this.#capture = [];
  }

  #keep(byte: number): void {
    const capture = this.#capture;
    if (capture === undefined) return;
    const limit = this.#capturing === "key" ? KEY_BYTES : ID_BYTES;
    if (capture.length < limit) capture.push(byte);
    // Too long to be what is looked for: dropped, the scan goes on.
    else this.#capture = undefined;
  }

  #endNumber(): void {
    const bytes = this.#capture;
    this.#capturing = undefined;
    this.#capture = undefined;
    const value = bytes === undefined ? NaN : Number(String.fromCharCode(...bytes));
    this.#id = Number.isFinite(value) ? value : null;
  }
}

const DECODER = new TextDecoder("utf-8", { fatal: true });

function decodeString(bytes: number[]): string | null {
  try {
    const parsed: unknown = JSON.parse(`"${DECODER.decode(new Uint8Array(bytes))}"`);
    return typeof parsed === "string" ? parsed : null;
  } catch {
    return null;
  }
}
