/**
 * The conditions that pin exactly what a preview shows: what "always allow" and "never" remember,
 * and what `rules add --tool NAME` pins when it is given no conditions. For a declared tool: the
 * resolved program, every argument (no more, no fewer; one filled from the input as that input
 * field), the cwd, the manifest's `env` (by digest, when it sets anything), the sandbox grants
 * (when the call has any: an allow rule without them holds only for a call with none), and, given
 * them, the digests of the files that decide what runs, with any input; for spawn: the mode, the
 * exact body, the target, the cwd, the grants when it has any, the reach and the child when the
 * preview shows them, and, given them, the digests of the files its words name. A value holding a
 * secret is stored by a salted digest when the rule is added (`addRule()`), so the rules file never
 * holds the secret and the rule still matches that value only.
 *
 * @module
 */

import { copySandbox, type ToolPreview } from "../preview.ts";
import type { SpawnPreview } from "../../spawn/types.ts";
import type { CallContent } from "./content.ts";
import { digestOf } from "./_digest.ts";
import { childText, envText } from "./decide.ts";
import type { ContentCondition, SpawnConditions, ToolConditions } from "./types.ts";
import type { InputSlot } from "../approve.ts";

/** What is pinned: a declared tool's call or a spawn call. */
export type Pinned =
  & (
    | {
      readonly kind: "tool";
      readonly preview: Omit<ToolPreview, "input" | "tool" | "env">;
      /** The manifest's `env` as the program gets it: pinned by digest when it sets anything. */
      readonly env?: Readonly<Record<string, string>>;
      /**
       * The arguments taken from the input (`ApprovalRequest.fromInput`): each is pinned as its
       * declaration, `{"input": field}` (any value of that field the tool's schema and argument
       * rules let through; the input itself is never pinned), with its `flag` or `prefix` for an
       * optional one, which is pinned whether the call has it or not; every other argument is
       * pinned exactly.
       */
      readonly fromInput?: readonly InputSlot[];
    }
    | { readonly kind: "spawn"; readonly preview: SpawnPreview }
  )
  & {
    /** The files that decide what runs, as found now: pinned by digest (an allow only). */
    readonly content?: CallContent;
  };

/**
 * The content condition pinning the files found, each by its digest (one that cannot be read is
 * left out: the rule then never holds for it).
 *
 * @param content The files found.
 * @returns The condition, or `undefined` when nothing is to be pinned.
 */
export function contentCondition(content: CallContent | undefined): ContentCondition | undefined {
  const pins = [...content ?? []].filter(([, entry]) => entry.sha256 !== undefined);
  return pins.length === 0
    ? undefined
    : Object.fromEntries(pins.map(([where, entry]) => [where, entry.sha256 as string]));
}

/**
 * The conditions matching exactly the pinned fields of a preview.
 *
 * @param pinned The kind of call and its preview.
 * @returns The conditions, keys in canonical order; a field's plain value is always exact (a `*`
 *   or `?` in it is literal).
 * @throws Never.
 * @example Pin the command and cwd, not the input
 * ```ts
 * import { pinConditions } from "./pin.ts";
 * const preview = { program: "/usr/bin/grep", command: ["grep", "-r", "*.ts"], cwd: "/w", sandbox: "unconfined" } as const;
 * const when = await pinConditions({ kind: "tool", preview });
 * console.assert(JSON.stringify(when) === '{"program":"/usr/bin/grep","argv":["grep","-r","*.ts"],"cwd":"/w"}');
 * ```
 */
export async function pinConditions(pinned: Pinned): Promise<ToolConditions | SpawnConditions> {
  const content = contentCondition(pinned.content);
  if (pinned.kind === "spawn") {
    const { mode, body, target, cwd, sandbox, reach, child } = pinned.preview;
    const shown = child === undefined ? undefined : childText(child);
    return {
      mode: mode === "agent" ? "agent" : "command",
      body,
      target,
      cwd,
      ...(sandbox === undefined ? {} : { sandbox: copySandbox(sandbox) }),
      ...(reach === undefined ? {} : { reach }),
      ...(shown === undefined ? {} : { child: JSON.parse(shown) }),
      ...(content === undefined ? {} : { content }),
    };
  }
  const { program, command, cwd, sandbox } = pinned.preview;
  const argv = declaredArgv(command, pinned.fromInput).map((arg) =>
    typeof arg === "string" ? arg : {
      input: arg.field,
      ...(arg.flag === undefined ? {} : { flag: arg.flag }),
      ...(arg.prefix === undefined ? {} : { prefix: arg.prefix }),
    }
  );
  const env = pinned.env ?? {};
  return {
    program,
    argv,
    cwd,
    ...(Object.keys(env).length === 0 ? {} : { env: await digestOf(envText(env)) }),
    // Grants beyond the default sandbox (unconfined is the user's own policy).
    ...(typeof sandbox === "object" &&
        (sandbox.network || sandbox.write.length + sandbox.read.length > 0)
      ? { sandbox: copySandbox(sandbox) }
      : {}),
    ...(content === undefined ? {} : { content }),
  };
}

/**
 * A declared tool's command as its manifest declares it, behind the argv of a call: each argument
 * taken from the input as its slot, in its place, and each optional one the call leaves out put
 * back where it goes. What a rule pins, and what content pins are numbered by (`argv[N]`), so that
 * a call with an optional argument and one without it pin and match the same.
 *
 * @param command The call's argv (or the manifest's, its slots all present).
 * @param fromInput Where its arguments from the input are, in argv order.
 * @returns The declared elements: a literal argument as its text, one from the input as its slot.
 */
export function declaredArgv(
  command: readonly string[],
  fromInput: readonly InputSlot[] = [],
): (string | InputSlot)[] {
  const declared: (string | InputSlot)[] = [];
  let next = 0;
  for (let index = 0; index <= command.length; index++) {
    while (fromInput[next]?.absent && fromInput[next]!.index === index) {
      declared.push(fromInput[next++]!);
    }
    if (index === command.length) break;
    const slot = fromInput[next];
    const taken = slot !== undefined && !slot.absent && slot.index === index;
    if (taken) next++;
    declared.push(taken ? slot : command[index]!);
  }
  return declared;
}
