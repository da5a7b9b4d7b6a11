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
import { attempt, quietly } from "../../quietly.ts";
import { readRegularFile } from "../../read_regular_file.ts";
import { sha256 } from "./_digest.ts";
import { writeFileAtomic } from "./_atomic.ts";
import type { CallContent } from "./content.ts";
import type { ContentChange } from "./types.ts";

/** Larger files are pinned but not copied. */
const KEEP_LIMIT = 64 << 10;

/**
 * Keeps a copy of every small text file a new allow rule pins (none of one holding a secret), and
 * the listing of its `files`.
 *
 * @param configDir The user's config directory.
 * @param content What the rule pins.
 * @param secrets Values no copy may hold (the call's env values).
 */
export async function keepApproved(
  configDir: string,
  content: CallContent,
  secrets: readonly string[],
): Promise<void> {
  for (const { path, sha256: digest, listing } of content.values()) {
    if (digest === undefined) continue;
    if (listing !== undefined) await keep(configDir, digest, JSON.stringify(listing));
    const files = listing?.map(([rel, sha]) => [joinPath(path, rel), sha] as const) ??
      [[path, digest] as const];
    for (const [file, sha] of files) {
      const text = smallText(file, secrets);
      if (text !== undefined && await sha256(text) === sha) await keep(configDir, sha, text);
    }
  }
}

/**
 * Reads a file as text when it is small, UTF-8, without NUL and without a secret (one copied or
 * shown line by line would escape redaction: a private key spans lines); `undefined` otherwise.
 */
function smallText(path: string, secrets: readonly string[]): string | undefined {
  const read = attempt(() => readRegularFile(path, { limit: KEEP_LIMIT }));
  if (read?.kind !== "read") return undefined;
  const text = attempt(() => new TextDecoder("utf-8", { fatal: true }).decode(read.bytes));
  const secret = secrets.some((value) => value !== "" && text?.includes(value));
  return text !== undefined && text.length <= KEEP_LIMIT && !text.includes("\0") && !secret
    ? text
    : undefined;
}

async function keep(configDir: string, digest: string, text: string): Promise<void> {
  const dir = joinPath(configDir, "approved");
  if (approvedText(configDir, digest, []) !== undefined) return;
  // Only the difference shown to a person depends on it.
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 }).catch(() => {});
  await writeFileAtomic(dir, digest, text).catch(() => {});
}

/** The kept copy with this digest, when there is one this user owns and no one else may write. */
function approvedText(configDir: string, digest: string, secrets: readonly string[]) {
  const file = joinPath(configDir, "approved", digest);
  const info = attempt(() => quietly(() => Deno.statSync(file)));
  return info?.isFile && untrusted(info) === undefined ? smallText(file, secrets) : undefined;
}

/**
 * Which files changed since a rule pinned them, each with the lines that differ when both copies
 * are small text.
 *
 * @param pinned The rule's content condition.
 * @param content The call's content now.
 * @param where The pins that differ.
 * @param place The user's config directory (the kept copies), the root paths are shown from, and
 *   the values no difference may show (a file holding one is named without its lines).
 * @returns One change a file, in the order of `where` (a `files` set's, by path).
 */
export function describeChanges(
  pinned: Readonly<Record<string, string>>,
  content: CallContent,
  where: readonly string[],
  place: { configDir: string | undefined; root: string; secrets: readonly string[] },
): ContentChange[] {
  const copy = (digest: string | undefined) =>
    digest === undefined || place.configDir === undefined
      ? undefined
      : approvedText(place.configDir, digest, place.secrets);
  const changes: ContentChange[] = [];
  const change = (path: string, before: string | undefined, after: string | undefined) => {
    const old = before === undefined || after === undefined ? undefined : copy(before);
    const now = old === undefined ? undefined : smallText(path, place.secrets);
    changes.push({
      path: path.startsWith(`${place.root}/`) ? path.slice(place.root.length + 1) : path,
      change: before === undefined ? "added" : after === undefined ? "removed" : "changed",
      ...(old === undefined || now === undefined ? {} : { diff: lineDiff(old, now) }),
    });
  };
  for (const key of where) {
    const entry = content.get(key);
    const listed = key === "files" ? parseListing(copy(pinned.files)) : undefined;
    if (listed === undefined || entry?.listing === undefined) {
      // A file that cannot be read now counts as changed; one gone is named by where it was.
      change(key === "files" ? key : entry?.path ?? key, pinned[key], entry && "");
      continue;
    }
    const now = new Map(entry.listing);
    for (const rel of [...new Set([...listed.keys(), ...now.keys()])].sort()) {
      if (listed.get(rel) !== now.get(rel)) {
        change(resolvePath(entry.path, rel), listed.get(rel), now.get(rel));
      }
    }
  }
  // A file pinned twice (a program its own `files` glob matches) is named once.
  return changes.filter((one, at) => changes.findIndex((other) => other.path === one.path) === at);
}

function parseListing(text: string | undefined): Map<string, string> | undefined {
  const value: unknown = attempt(() => JSON.parse(text ?? ""));
  const pair = (item: unknown): item is [string, string] =>
    Array.isArray(item) && typeof item[0] === "string" && typeof item[1] === "string";
  return Array.isArray(value) ? new Map(value.filter(pair)) : undefined;
}

/**
 * The lines that differ between two texts: the lines both share at the start and at the end are
 * left out, and what is between is shown as `- ` lines of the first and `+ ` lines of the second,
 * under a `@@ line N` heading (whoever shows it cuts it).
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
  let end = 0;
  while (
    end < a.length - start && end < b.length - start &&
    a[a.length - 1 - end] === b[b.length - 1 - end]
  ) end++;
  return [
    `@@ line ${start + 1}`,
    ...a.slice(start, a.length - end).map((line) => `- ${line}`),
    ...b.slice(start, b.length - end).map((line) => `+ ${line}`),
  ];
}
