/**
 * The rules file on disk: `<configDir>/rules.json`, `{"version": 2, "rules": [...]}`. It is only
 * ever looked for in the user's config directory, never in a workspace: a repository must not be
 * able to approve its own tools. The file and its directory must be this user's and writable by no
 * one else, or every call is denied.
 *
 * Readers take no lock: every write replaces the file atomically (temporary file in the same
 * directory, flushed, renamed; mode 0600; directory created 0700). Writers serialise their
 * read-modify-write on an exclusive lock of the sibling `rules.json.lock`, waiting for it at most
 * `LOCK_WAIT_MS`.
 *
 * @module
 */

import { BasisError } from "../../errors.ts";
import { type Phrase, phrase } from "../../locale/messages.ts";
import { fsReason, isFileSystemError } from "../../fs_reason.ts";
import { canonicalPath, isAbsolutePath, joinPath } from "../../paths.ts";
import { MAX_CONFIG_BYTES } from "../../read_config_file.ts";
import { randomId, removeStaleTemps, writeFileAtomic } from "./_atomic.ts";
import { samePin } from "./_digest.ts";
import { readRulesDocument } from "./_read.ts";
import { checkRules, partitionRules } from "./check.ts";
import { sealSecrets } from "./_seal.ts";
import type { Digest, LoadedRules, Rule, RuleInput } from "./types.ts";
import { formatRulesDocument, narrowRuleInput, RULES_VERSION } from "./validate.ts";

/** The rules file's name inside the config directory. */
export const RULES_FILE_NAME = "rules.json";
const LOCK_FILE_NAME = `${RULES_FILE_NAME}.lock`;
/** How long a writer waits for the lock before giving up. */
const LOCK_WAIT_MS = 5000;

/**
 * Where the rules file lives.
 *
 * @param configDir The user's config directory (`configDir()` from `src/paths.ts`).
 * @returns `<configDir>/rules.json`.
 * @throws Never.
 * @example The file's place
 * ```ts
 * import { rulesFilePath } from "./store.ts";
 * console.assert(rulesFilePath("/home/u/.config/basis") === "/home/u/.config/basis/rules.json");
 * ```
 */
export function rulesFilePath(configDir: string): string {
  return joinPath(configDir, RULES_FILE_NAME);
}

/**
 * Loads the remembered rules from the user's config directory. A missing file means no rules.
 * Rules whose examples fail are reported in `problems`; failing allow rules are moved to `ignored`
 * (a broken rule never allows), failing deny and ask rules stay in force.
 *
 * @param configDir The user's config directory, never a workspace.
 * @returns The rules in force, the ignored ones, and the problems found.
 * @throws {RulesFileError} (code `denied`) When the file or its directory belongs to another user
 *   or is writable by group or others, or the file cannot be read, is not valid JSON (the message
 *   gives line:column), has the wrong shape, an unknown field, a bad condition or digest, a
 *   duplicate id, or a version other than 2. Nothing may be allowed then.
 * @example Look a call up
 * ```ts ignore
 * import { configDir } from "../../paths.ts";
 * import { loadRules } from "./store.ts";
 * const { rules, problems } = await loadRules(configDir());
 * ```
 */
export async function loadRules(configDir: string): Promise<LoadedRules> {
  const file = rulesFilePath(configDir);
  const document = await readRulesDocument(file);
  return { file, ...await partitionRules(document?.rules ?? []) };
}

/** Options of {@linkcode addRule}. */
export interface AddRuleOptions {
  /**
   * Values never to store (the tool's env values, the `--env` values): an exact program,
   * argument, cwd or body holding one is stored by digest, and so are grants holding one; a secret
   * anywhere else refuses the rule. @default []
   */
  readonly secrets?: readonly string[];
}

/** What {@linkcode addRule} returns: the rule as stored, `existing` when it was there already. */
export type AddedRule = Rule & {
  /** An identical rule was in the file already: it is returned, and nothing was written. */
  readonly existing?: true;
};

/**
 * Adds a rule: assigns a fresh id and the creation time, and appends it to the file under the
 * lock, atomically. The directory is created (0700) if needed. A rule identical to one in the file
 * (the same tool, decision, scope, conditions, reason and examples; a digest the same when it pins
 * the same value) is not added again: that one is returned, marked `existing`.
 *
 * @param configDir The user's config directory.
 * @param input The rule. A workspace scope must be absolute (it is made canonical: symbolic links
 *   resolved, so every spelling of a root is one scope).
 * @param options The secrets the rule must not hold.
 * @returns The rule as stored.
 * @throws {BasisError} Code `usage` when the rule is malformed, one of its own examples fails, or
 *   it holds a secret where no digest can stand for it;
 *   code `denied` when the existing file cannot be trusted (a `RulesFileError`; the file is left
 *   as it is), another process holds the lock for too long, or the new file cannot be written
 *   (`Cannot save rules ...`; the old file is intact).
 * @example Remember an allow rule for one workspace
 * ```ts ignore
 * import { addRule } from "./store.ts";
 * const rule = await addRule("/home/u/.config/basis", {
 *   tool: "cargo", decision: "allow", scope: { workspace: "/home/u/src/app" },
 *   when: { program: "/usr/bin/cargo", argv: ["cargo", "test", { rest: true }] },
 * });
 * console.log(rule.id);
 * ```
 */
export async function addRule(
  configDir: string,
  input: RuleInput,
  options: AddRuleOptions = {},
): Promise<AddedRule> {
  const sealed = await sealSecrets(input, options.secrets ?? []);
  const narrowed = await narrowRuleInput(normaliseScope(sealed));
  if (!narrowed.ok) throw BasisError.of("usage", cannotAdd(input, narrowed.problems[0]!));
  const problem = (await checkRules([{ id: "new", ...narrowed.value }]))[0];
  if (problem !== undefined) throw BasisError.of("usage", cannotAdd(input, problem.phrase));
  return await underLock(configDir, true, async (_file, rules): Promise<AddedRule> => {
    for (const rule of rules) {
      const { id: _, created: __, ...kept } = rule;
      if (await same(kept, narrowed.value)) return { ...rule, existing: true };
    }
    const taken = new Set(rules.map((rule) => rule.id));
    // `r-` and 8 lowercase base32 characters (40 random bits), drawn again when taken.
    let id = `r-${randomId()}`;
    while (taken.has(id)) id = `r-${randomId()}`;
    const stored: Rule = { id, ...narrowed.value, created: new Date().toISOString() };
    await save(configDir, [...rules, stored]);
    return stored;
  });
}

/**
 * Removes the rule with this id, under the lock, atomically.
 *
 * @param configDir The user's config directory.
 * @param id The rule's id.
 * @returns The rule removed.
 * @throws {BasisError} Code `usage` when no rule has this id (or there is no rules file); code
 *   `denied` when the file cannot be trusted (a `RulesFileError`) or the new file cannot be written
 *   (`Cannot save rules ...`; the old file is intact).
 * @example Forget a rule
 * ```ts ignore
 * import { removeRule } from "./store.ts";
 * await removeRule("/home/u/.config/basis", "r-k3v9q2ma");
 * ```
 */
export async function removeRule(configDir: string, id: string): Promise<Rule> {
  return await underLock(configDir, false, async (file, rules) => {
    const index = rules.findIndex((rule) => rule.id === id);
    const found = rules[index];
    if (found === undefined) {
      throw BasisError.of(
        "usage",
        phrase("rules.cannot_remove", { id: JSON.stringify(id), file: JSON.stringify(file) }),
      );
    }
    await save(configDir, rules.filter((_, at) => at !== index));
    return found;
  });
}

/**
 * Runs a read-modify-write under an exclusive lock of the sibling lock file (created 0600, never
 * deleted: deleting it would let two writers hold locks on two different files), waiting for it
 * at most `LOCK_WAIT_MS`; the OS releases it if the process dies. The rules are `[]` when there
 * is no file.
 */
async function underLock<T>(
  configDir: string,
  create: boolean,
  work: (file: string, rules: readonly Rule[]) => Promise<T>,
): Promise<T> {
  const file = rulesFilePath(configDir);
  const lock = joinPath(configDir, LOCK_FILE_NAME);
  const open = () => Deno.open(lock, { read: true, write: true, create: true, mode: 0o600 });
  try {
    let handle: Deno.FsFile;
    try {
      handle = await open();
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      if (!create) return await work(file, []); // No directory: no rules to remove.
      await Deno.mkdir(configDir, { recursive: true, mode: 0o700 });
      handle = await open();
    }
    using locked = handle;
    const started = performance.now();
    for (let pause = 5; !locked.tryLockSync(true); pause = Math.min(pause * 2, 100)) {
      const waited = performance.now() - started;
      if (waited >= LOCK_WAIT_MS) {
        const ms = Math.round(waited);
        const params = { file: JSON.stringify(file), lock: JSON.stringify(lock), ms };
        throw BasisError.of("denied", phrase("rules.lock_busy", params));
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, LOCK_WAIT_MS - waited)));
    }
    try {
      await removeStaleTemps(configDir, RULES_FILE_NAME);
      return await work(file, (await readRulesDocument(file))?.rules ?? []);
    } finally {
      await locked.unlock();
    }
  } catch (error) {
    if (!isFileSystemError(error)) throw error; // Ours already, or a bug: keep it as it is.
    const params = { file: JSON.stringify(file), reason: fsReason(error) };
    throw BasisError.of("denied", phrase("rules.cannot_save", params), { cause: error });
  }
}

async function save(configDir: string, rules: readonly Rule[]): Promise<void> {
  const text = formatRulesDocument({ version: RULES_VERSION, rules });
  // Never a file the next read refuses: every call would be denied, and no rule could be removed.
  if (new TextEncoder().encode(text).length > MAX_CONFIG_BYTES) {
    const limit = phrase("size.mib", { count: MAX_CONFIG_BYTES >> 20 });
    const params = { file: JSON.stringify(rulesFilePath(configDir)) };
    const reason = phrase("rules.save_too_large", { limit });
    throw BasisError.of("denied", phrase("rules.cannot_save", { ...params, reason }));
  }
  await writeFileAtomic(configDir, RULES_FILE_NAME, text);
}

/**
 * Whether a stored value is the one made: equal JSON, key order aside; a stored digest the same as
 * a digest made here when both pin one value (a fresh digest has a fresh salt).
 */
async function same(stored: unknown, made: unknown): Promise<boolean> {
  const digest = (value: object) => Object.keys(value).sort().join() === "salt,sha256";
  const object = (value: unknown): value is Record<string, unknown> =>
    typeof value === "object" && value !== null;
  // A number kept as written (raw JSON) is compared as its text, like every other leaf.
  if (!object(stored) || !object(made)) return JSON.stringify(stored) === JSON.stringify(made);
  if (digest(stored) && digest(made)) return await samePin(stored as Digest, made as Digest);
  const keys = Object.keys(stored);
  if (Array.isArray(stored) !== Array.isArray(made) || keys.length !== Object.keys(made).length) {
    return false;
  }
  for (const key of keys) {
    if (!Object.hasOwn(made, key) || !await same(stored[key], made[key])) return false;
  }
  return true;
}

/** The rule with its workspace root made canonical (a relative root is refused by its check). */
function normaliseScope(input: RuleInput): RuleInput {
  const root: unknown = (input.scope as { workspace?: unknown } | undefined)?.workspace;
  if (typeof root !== "string" || !isAbsolutePath(root)) return input;
  return { ...input, scope: { ...input.scope as object, workspace: canonicalPath(root) } };
}

/** `Cannot add rule for tool "x": <problem>`, or `for a tool` when it has no name. */
function cannotAdd({ tool }: RuleInput, problem: Phrase): Phrase {
  return typeof tool === "string"
    ? phrase("rules.cannot_add", { tool: JSON.stringify(tool), problem })
    : phrase("rules.cannot_add_unnamed", { problem });
}
