/**
 * The approver a tool uses unless its host brings its own: remembered rules, then a policy
 * (`prompt`, `always`, `never`), then a person at the terminal — the same decision the CLI makes.
 *
 * @module
 */

import type { ApprovalOptions, Asker } from "../approval/approve.ts";
import type { ApprovalPolicy } from "../approval/policy.ts";
import type { Approver, ApproverContext } from "./types.ts";
import type { Locale } from "../locale/locale.ts";
import { loadLocale, messages, type Phrase } from "../locale/messages.ts";

/** Options of {@linkcode policyApprover}. */
export interface PolicyApproverOptions {
  /**
   * How calls that no rule answers are decided.
   *
   * @default {"prompt"}
   */
  policy?: ApprovalPolicy;
  /** The user's config directory, where `rules.json` lives; without it no rule applies. */
  configDir?: string;
  /** The workspace root, for rules scoped to a workspace (and the hint of a denial). */
  root?: string;
  /**
   * Where digests of the files an allow rule pins are cached.
   *
   * @default {no cache: a pinned file is read on every call}
   */
  cacheDir?: string;
  /**
   * Asks a person.
   *
   * @default {the terminal prompt on stdin and stderr, cancelled by the call's signal}
   */
  ask?: Asker;
  /**
   * The language of the default terminal prompt's texts.
   *
   * @default {"en-US"}
   */
  locale?: Locale;
  /**
   * Whether the default terminal prompt may ask on the controlling terminal (`/dev/tty`) when
   * stdin or stderr is not a terminal (the input was piped in). A host that owns the terminal
   * says `false`.
   *
   * @default {true}
   */
  controllingTerminal?: boolean;
  /**
   * Told what became of an answer to remember: the rule "always allow" or "never" made, or why it
   * could not be saved (the call is then allowed or denied this once).
   *
   * @default {a line `basis-tools: …` on stderr, in `locale`}
   */
  tell?: (line: Phrase) => void;
}

/**
 * An approver that decides as the CLI does: a remembered rule first, then the policy; with
 * `prompt`, a person at the terminal (no terminal: denied, saying how to allow the call).
 *
 * @param options The policy, where rules live, the workspace root, and how to ask.
 * @returns The approver.
 * @example Allow every call no rule denies
 * ```ts ignore
 * import { policyApprover } from "./approver.ts";
 * import { DeclaredToolBuilder } from "./declared_tool.ts";
 * // spec: a ToolSpec from loadRoster()
 * const tool = new DeclaredToolBuilder(spec, {
 *   approver: policyApprover({ policy: "always", configDir: "/home/me/.config/basis" }),
 * }).build();
 * ```
 */
export function policyApprover(options: PolicyApproverOptions = {}): Approver {
  const policy = options.policy ?? "prompt";
  return async (request, context) => {
    const settings: ApprovalOptions = {
      policy,
      secrets: context.secrets,
      ask: options.ask ?? terminalAsker(context, options.locale, options.controllingTerminal),
    };
    if (options.configDir !== undefined) settings.configDir = options.configDir;
    if (options.root !== undefined) settings.root = options.root;
    if (options.cacheDir !== undefined) settings.cacheDir = options.cacheDir;
    const told: Phrase[] = [];
    settings.tell = options.tell ?? ((line) => told.push(line));
    // Loaded with the first call: a tool that is only described (list, schema) never needs it.
    const { decide } = await import("../approval/approve.ts");
    const decision = await decide(request, settings);
    if (told.length > 0) await tellOnStderr(told, options.locale ?? "en-US");
    return decision;
  };
}

async function tellOnStderr(lines: readonly Phrase[], locale: Locale): Promise<void> {
  await loadLocale(locale);
  const words = messages(locale);
  const text = lines.map((line) => `basis-tools: ${words.say(line)}\n`).join("");
  try {
    await Deno.stderr.write(new TextEncoder().encode(text));
  } catch {
    // Nowhere left to say it.
  }
}

function terminalAsker(
  context: ApproverContext,
  locale: Locale | undefined,
  controllingTerminal: boolean | undefined,
): Asker {
  return async (request) => {
    const { promptApproval } = await import("../approval/terminal/prompt_approval.ts");
    return await promptApproval(request, {
      secrets: context.secrets,
      ...(controllingTerminal === undefined ? {} : { controllingTerminal }),
      ...(locale === undefined ? {} : { locale }),
      ...(context.signal === undefined ? {} : { signal: context.signal }),
    });
  };
}
