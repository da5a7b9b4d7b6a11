/**
 * The module graph of src/, as Deno sees it (`deno info --json`): the boundaries the code keeps.
 * No import cycle between folders (a file at the top of src/ is a node of its own; the entry points
 * main.ts and mod.ts import everything and are left out); no folder imports another folder's
 * private (`_`) file; what every command loads at start-up stays small (no npm package, no second
 * catalogue, no seam a command brings in on demand); and the heavy packages (ajv's compiler, the
 * terminal prompt, the MCP SDK, the JSONC parser) are never in a command's static graph. The
 * library surface (`src/mod.ts`) exports exactly the names chosen for it (`deno doc --json`).
 */

import assert from "node:assert/strict";
import { ROOT } from "./_cli.ts";

interface Dependency {
  readonly code?: { readonly specifier?: string };
  readonly type?: { readonly specifier?: string };
  readonly isDynamic?: boolean;
}
interface Module {
  readonly specifier: string;
  readonly dependencies?: readonly Dependency[];
}

const SRC = `file://${ROOT}src/`;

async function graph(entry: string): Promise<Map<string, Module>> {
  const info = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", `${ROOT}${entry}`],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(info.success, new TextDecoder().decode(info.stderr));
  const parsed = JSON.parse(new TextDecoder().decode(info.stdout)) as { modules: Module[] };
  return new Map(parsed.modules.map((module) => [module.specifier, module]));
}

/** A module's path under src/ (`undefined` outside it). */
function underSrc(specifier: string): string | undefined {
  return specifier.startsWith(SRC) ? specifier.slice(SRC.length) : undefined;
}

/** The node of a file: its folder under src/, or the file itself at the top. */
function nodeOf(path: string): string {
  const slash = path.indexOf("/");
  return slash === -1 ? path : path.slice(0, slash);
}

/** Every import of every module: code and type, static and dynamic. */
function* imports(modules: Map<string, Module>) {
  for (const module of modules.values()) {
    const from = underSrc(module.specifier);
    if (from === undefined) continue;
    for (const dependency of module.dependencies ?? []) {
      for (const target of [dependency.code?.specifier, dependency.type?.specifier]) {
        const to = target === undefined ? undefined : underSrc(target);
        if (to !== undefined) yield { from, to };
      }
    }
  }
}

/** The modules an entry loads before it runs: static code imports only. */
function startupGraph(modules: Map<string, Module>, entry: string): Set<string> {
  const seen = new Set<string>();
  const stack = [`file://${ROOT}${entry}`];
  while (stack.length > 0) {
    const specifier = stack.pop()!;
    if (seen.has(specifier)) continue;
    seen.add(specifier);
    for (const dependency of modules.get(specifier)?.dependencies ?? []) {
      const target = dependency.code?.specifier;
      if (target !== undefined && dependency.isDynamic !== true) stack.push(target);
    }
  }
  return seen;
}

/** Strongly connected components of more than one node (Tarjan). */
function cycles(edges: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of edges.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return found;
}

const ENTRIES = new Set(["main.ts", "mod.ts"]);
const whole = await graph("src/mod.ts");
for (const [specifier, module] of await graph("src/main.ts")) whole.set(specifier, module);

Deno.test("no import cycle between the folders of src/", () => {
  const edges = new Map<string, Set<string>>();
  const why = new Map<string, string>();
  for (const { from, to } of imports(whole)) {
    if (ENTRIES.has(from)) continue;
    const [a, b] = [nodeOf(from), nodeOf(to)];
    if (a === b) continue;
    if (!edges.has(a)) edges.set(a, new Set());
    edges.get(a)!.add(b);
    why.set(`${a}→${b}`, `${from} → ${to}`);
  }
  const found = cycles(edges);
  const shown = found.map((component) =>
    component.join(", ") + ": " +
    [...why].filter(([edge]) => component.some((n) => edge.startsWith(`${n}→`)))
      .filter(([edge]) => component.includes(edge.split("→")[1]!))
      .map(([, files]) => files).join("; ")
  );
  assert.deepEqual(shown, []);
});

Deno.test("no folder imports another folder's private (_) file", () => {
  const crossing = [...imports(whole)].filter(({ from, to }) =>
    nodeOf(from) !== nodeOf(to) && to.slice(to.lastIndexOf("/") + 1).startsWith("_") &&
    !ENTRIES.has(from)
  ).map(({ from, to }) => `${from} → ${to}`);
  assert.deepEqual([...new Set(crossing)], []);
});

Deno.test("every command starts with a small graph: no npm package, one catalogue, no seam loaded on demand", () => {
  const startup = [...startupGraph(whole, "src/main.ts")];
  const outside = startup.filter((specifier) => underSrc(specifier) === undefined);
  assert.deepEqual(outside, [], "npm packages (or anything outside src/) at start-up");
  const onDemand =
    /^(?:contract|manifest|mcp|run|sandbox|schema|audit|permissions)\/|^locale\/uk_ua\.ts$|^approval\/(?:terminal|rules|elicitation)\//;
  const early = startup.map((specifier) => underSrc(specifier)!).filter((path) =>
    onDemand.test(path)
  );
  assert.deepEqual(early, [], "modules a command loads on demand, loaded at start-up");
});

Deno.test("list loads the manifest's readers, not the call pipeline", async () => {
  const command = "src/cli/commands/list.ts";
  const call =
    /^approval\/(?!shell_quote\.ts)|^(?:audit|sandbox)\/|^contract\/(?:_call|declared_tool|spawn_tool)\.ts$|^run\/(?:run_program|_launch|_supervise)\.ts$/;
  const loaded = [...startupGraph(await graph(command), command)]
    .map((specifier) => underSrc(specifier)).filter((path) =>
      path !== undefined && call.test(path)
    );
  assert.deepEqual(loaded, []);
});

Deno.test("the heavy packages are loaded on demand, never in a command's static graph", async () => {
  const heavy = /npm:.*(?:\/ajv@|@inquirer|@modelcontextprotocol|jsonc-parser|re2js)/;
  const commands = [...Deno.readDirSync(`${ROOT}src/cli/commands`)]
    .filter((file) => file.isFile && file.name.endsWith(".ts") && !file.name.startsWith("_"))
    .map((file) => `src/cli/commands/${file.name}`);
  assert.ok(commands.length >= 10, commands.join(", "));
  const found: string[] = [];
  for (const command of commands) {
    const modules = await graph(command);
    // The MCP server is the SDK's client of record: it may load it when it starts.
    if (command.endsWith("/mcp.ts")) continue;
    for (const specifier of startupGraph(modules, command)) {
      if (heavy.test(specifier)) found.push(`${command}: ${specifier}`);
    }
  }
  assert.deepEqual(found, []);
});

/**
 * What `src/mod.ts` exports, values and types: the contract (builder → tool → execution), the
 * definitions for model APIs, the roster loader, errors, locale, and the types those refer to.
 * A name added or dropped here is a change of the library's API: decide it, then update the list.
 */
const LIBRARY_SURFACE = [
  "AnthropicToolDefinition",
  "ApprovalPolicy",
  "ApprovalRequest",
  "Approver",
  "ApproverContext",
  "ArgumentType",
  "Asker",
  "AudioContent",
  "AuditEntry",
  "AuditSink",
  "AvailabilityOptions",
  "BasisError",
  "ChangedSinceApproval",
  "ChildPolicy",
  "ChildPreview",
  "ContentAnnotations",
  "ContentBlock",
  "ContentChange",
  "Counted",
  "DEFINITION_FORMATS",
  "DecidedBy",
  "Decision",
  "DecisionEntry",
  "DeclaredToolBuilder",
  "DeclaredToolExtra",
  "DeclaredToolOptions",
  "DefinitionFormat",
  "EN_US",
  "EmbeddedResource",
  "EnvLookup",
  "ErrorCode",
  "ExecuteOptions",
  "ExecutionOptions",
  "GeminiFunctionDeclaration",
  "GrantLists",
  "ImageContent",
  "InputArgument",
  "InputSlot",
  "LoadOptions",
  "Locale",
  "ManifestError",
  "ManifestProblem",
  "ManifestScope",
  "ManifestSource",
  "McpToolAnnotations",
  "McpToolDefinition",
  "MediaContent",
  "MessageKey",
  "MessageParams",
  "Messages",
  "NamedAgent",
  "OpenAIResponsesToolDefinition",
  "OpenAIToolDefinition",
  "OptionsBuilder",
  "OutputChunk",
  "Phrase",
  "PhraseParams",
  "PolicyApproverOptions",
  "PreviewSandbox",
  "PromptRequest",
  "Reach",
  "ReachPolicy",
  "RecordOptions",
  "ResourceLink",
  "Roster",
  "RosterTool",
  "RosterToolsOptions",
  "RunEntry",
  "RunOutcome",
  "RunResult",
  "SandboxGrants",
  "SandboxMode",
  "SandboxOptions",
  "SandboxPolicy",
  "ServeOptions",
  "SideEffect",
  "SpawnCall",
  "SpawnConfig",
  "SpawnOutput",
  "SpawnPreview",
  "SpawnPromptRequest",
  "SpawnSideEffect",
  "SpawnToolBuilder",
  "SpawnToolExtra",
  "SpawnToolOptions",
  "StartFailure",
  "TerminalAnswer",
  "TextContent",
  "Tool",
  "ToolBuilder",
  "ToolDefinitions",
  "ToolError",
  "ToolErrorKind",
  "ToolExecution",
  "ToolMetadata",
  "ToolOutput",
  "ToolPreview",
  "ToolPromptRequest",
  "ToolSandbox",
  "ToolService",
  "ToolSpec",
  "UnavailableTool",
  "VERSION",
  "checkAvailability",
  "english",
  "loadRoster",
  "loadSandboxPolicy",
  "loadSpawnConfig",
  "messages",
  "policyApprover",
  "rosterTools",
  "serveWorkspace",
  "toolProblems",
];

Deno.test("the library surface (src/mod.ts) exports exactly the names chosen for it", async () => {
  const doc = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--json", `${ROOT}src/mod.ts`],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(doc.success, new TextDecoder().decode(doc.stderr));
  const parsed = JSON.parse(new TextDecoder().decode(doc.stdout)) as {
    nodes: Record<string, { symbols: { name: string }[] }>;
  };
  const names = Object.values(parsed.nodes).flatMap((node) => node.symbols.map((s) => s.name));
  assert.deepEqual([...new Set(names)].sort(), LIBRARY_SURFACE);
});
