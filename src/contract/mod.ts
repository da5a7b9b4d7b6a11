/**
 * The tool contract: a builder holds a tool's configuration, `build()` makes the tool (its
 * localized texts, schemas and definitions for model APIs), `execution(args)` validates a call, and
 * the execution runs it once — preview, remembered rules, approver, program — with its output as a
 * stream and a final {@linkcode ToolOutput}. The CLI and hosts call tools only through it.
 *
 * @example Build a declared tool and run it once, streaming its output
 * ```ts ignore
 * import { DeclaredToolBuilder, loadRoster, policyApprover } from "@basis/tools";
 * const roster = await loadRoster({ workspace: "examples" });
 * const tool = new DeclaredToolBuilder(roster.tools.get("echo")!, {
 *   root: roster.root,
 *   locale: "uk-UA",
 *   approver: policyApprover({ policy: "always" }),
 * }).build();
 * const execution = await tool.execution({ hello: "світ" });
 * const chunks = execution.outputStream();
 * const done = execution.execute();
 * for await (const chunk of chunks) console.log(chunk.kind, chunk.data.length);
 * console.log((await done).result);
 * ```
 *
 * @module
 */

export * from "./types.ts";
export * from "./tool_error.ts";
export { policyApprover, type PolicyApproverOptions } from "./approver.ts";
export { OptionsBuilder } from "./options_builder.ts";
export * from "./declared_tool.ts";
export * from "./spawn_tool.ts";
export * from "./roster_tools.ts";
export * from "./availability.ts";
