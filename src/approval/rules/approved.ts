/**
 * The approved copies of small text files, kept so that a person asked again can see what changed:
 * `<configDir>/approved/<sha256>`, content-addressed (a copy is only ever written under the digest
 * of its own bytes), mode 0600 in a 0700 directory beside `rules.json`. A `files` pin keeps its
 * listing (relative path → digest) the same way, so the file of a set that changed can be named.
 * Keeping copies is a courtesy: a failure to write one never stops a rule.
 *
 * @module
 */

import { joinPath, resolvePath } from "../../paths.ts";
import { untrusted } from "../../owner.ts";
import { quietly } from "../../quietly.ts";
import { sha256 } from "./_file_digest.ts";
import { writeFileAtomic } from "./_atomic.ts";
import { type CallContent, type ContentSubject, pinnedPath } from "./content.ts";
import type { ContentChange } from "./types.ts";

/** Larger files are pinned but not copied. */
const KEEP_LIMIT = 64 << 10;

function approvedDir(configDir: string): string {
  return joinPath(configDir, "approved");
}

/**
 * Keeps a copy of every small text file a new allow rule pins, and the listing of its `files`.
 *
 * @param configDir The user's config directory.
 * @param content What the rule pins.
 */
export async function keepApproved(configDir: string, content: CallContent): Promise<void> {
  for (const entry of content.values()) {
    if (entry.sha256 === undefined) continue;
    if (entry.listing === undefined) {
      await keepFile(configDir, entry.path, entry.sha256);
      continue;
    }
    await keep(configDir, entry.sha256, JSON.stringify(entry.listing));
    for (const [rel, digest] of entry.listing) {
      await keepFile(configDir, joinPath(entry.path, rel), digest);
    }
  }
}

/** Reads a file as text when it is small, UTF-8 and without NUL; `undefined` otherwise. */
function smallText(path: string): string | undefined {
  try {
    if (quietly(() => Deno.statSync(path)).size > KEEP_LIMIT) return undefined;
    const text = new TextDecoder("utf-8", { fatal: true }).decode(Deno.readFileSync(path));
    return text.length <= KEEP_LIMIT && !text.includes("\0") ? text : undefined;
  } catch {
    return undefined;
  }
}

async function keepFile(configDir: string, path: string, digest: string): Promise<void> {
  const text = smallText(path);
  if (text !== undefined && await sha256(text) === digest) await keep(configDir, digest, text);
}

async function keep(configDir: string, digest: string, text: string): Promise<void> {
  const dir = approvedDir(configDir);
  try {
    if (approvedText(configDir, digest) !== undefined) return;
    await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
    await writeFileAtomic(dir, digest, text);
  } catch {
    // Only the difference shown to a person depends on it.
  }
}

/** The kept copy with this digest, when there is one this user owns and no one else may write. */
function approvedText(configDir: string, digest: string): string | undefined {
  const file = joinPath(approvedDir(configDir), digest);
  try {
    const info = quietly(() => Deno.statSync(file));
    if (!info.isFile || untrusted(info) !== undefined) return undefined;
  } catch {
    return undefined;
  }
  return smallText(file);
}

/**
 * Which files changed since a rule pinned them, each with the lines that differ when both copies
 * are small text.
 *
 * @param pinned The rule's content condition.
 * @param content The call's content now.
 * @param subject What the call runs (to name a file that is gone).
 * @param where The pins that differ.
 * @param place The user's config directory (the kept copies), and the root paths are shown from.
 * @returns One change a file, in the order of `where` (a `files` set's, by path).
 */
export function describeChanges(
  pinned: Readonly<Record<string, string>>,
  content: CallContent,
  subject: ContentSubject,
  where: readonly string[],
  place: { readonly configDir: string | undefined; readonly root: string },
): ContentChange[] {
  const shown = (path: string) =>
    path.startsWith(`${place.root}/`) ? path.slice(place.root.length + 1) : path;
  const copy = (digest: string | undefined) =>
    digest === undefined || place.configDir === undefined
      ? undefined
      : approvedText(place.configDir, digest);
  const change = (
    path: string,
    before: string | undefined,
    after: string | undefined,
  ): ContentChange => {
    const kind = before === undefined ? "added" : after === undefined ? "removed" : "changed";
    const old = kind === "changed" ? copy(before) : undefined;
    const now = old === undefined ? undefined : smallText(path);
    return {
      path: shown(path),
      change: kind,
      ...(old === undefined || now === undefined ? {} : { diff: lineDiff(old, now) }),
    };
  };
  const changes: ContentChange[] = [];
  for (const key of where) {
    const entry = content.get(key);
    if (key !== "files") {
      const path = entry?.path ?? pinnedPath(subject, key) ?? key;
      // A file that cannot be read now counts as changed, never as gone.
      changes.push(change(path, pinned[key], entry === undefined ? undefined : entry.sha256 ?? ""));
      continue;
    }
    const listed = copy(pinned.files);
    const before = listed === undefined ? undefined : parseListing(listed);
    if (before === undefined || entry?.listing === undefined) {
      changes.push({ path: "files", change: pinned.files === undefined ? "added" : "changed" });
      continue;
    }
    const after = new Map(entry.listing);
    const paths = [...new Set([...before.keys(), ...after.keys()])].sort();
    for (const rel of paths) {
      if (before.get(rel) === after.get(rel)) continue;
      changes.push(change(resolvePath(entry.path, rel), before.get(rel), after.get(rel)));
    }
    if (!entry.sha256) changes.push({ path: "files", change: "changed" });
  }
  // A file pinned twice (a program its own `files` glob matches) is named once.
  return changes.filter((one, at) => changes.findIndex((other) => other.path === one.path) === at);
}

function parseListing(text: string): Map<string, string> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value)) return undefined;
    return new Map(
      value.filter((pair): pair is [string, string] =>
        Array.isArray(pair) && typeof pair[0] === "string" && typeof pair[1] === "string"
      ),
    );
  } catch {
    return undefined;
  }
}

/**
 * The lines that differ between two texts: `- ` for a line only in the first, `+ ` for one only
 * in the second, a `@@ line N` heading where the difference starts; the common lines between are
 * left out. A longest common subsequence on what differs (whoever shows it cuts it).
 *
 * @param before The approved text.
 * @param after The text now.
 * @returns The lines.
 */
export function lineDiff(before: string, after: string): string[] {
  const a = before.split("\n");
  const b = after.split("\n");
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const left = a.slice(start, endA);
  const right = b.slice(start, endB);
  const lines = [`@@ line ${start + 1}`];
  if (left.length * right.length > 4_000_000) {
    lines.push(...left.map((line) => `- ${line}`), ...right.map((line) => `+ ${line}`));
  } else {
    // lengths[i][j]: the longest common subsequence of left[i..] and right[j..].
    const width = right.length + 1;
    const lengths = new Uint32Array((left.length + 1) * width);
    for (let i = left.length - 1; i >= 0; i--) {
      for (let j = right.length - 1; j >= 0; j--) {
        lengths[i * width + j] = left[i] === right[j]
          ? (lengths[(i + 1) * width + j + 1] as number) + 1
          : Math.max(lengths[(i + 1) * width + j] as number, lengths[i * width + j + 1] as number);
      }
    }
    let i = 0;
    let j = 0;
    while (i < left.length || j < right.length) {
      if (i < left.length && j < right.length && left[i] === right[j]) {
        lines.push(`  ${left[i++]}`);
        j++;
      } else if (
        j >= right.length ||
        (i < left.length &&
          (lengths[(i + 1) * width + j] as number) >= (lengths[i * width + j + 1] as number))
      ) {
        lines.push(`- ${left[i++]}`);
      } else {
        lines.push(`+ ${right[j++]}`);
      }
    }
  }
  return lines;
}
