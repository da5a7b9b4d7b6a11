/**
 * Remembered-rule lookup: one preview decided against 1,000 rules of mixed tools, patterns,
 * decisions and scopes (the shape `loadRules` returns); reading and validating that file (what a
 * fresh process pays before its first lookup); and the pattern matcher on its own.
 *
 * Run: `deno bench -A bench/rules_bench.ts`
 */

import {
  decideByRules,
  formatRulesDocument,
  loadRules,
  matchPattern,
  type Rule,
  rulesFilePath,
} from "../src/approval/rules/mod.ts";

const TOOLS = Array.from({ length: 20 }, (_, n) => `tool-${n}`);
const ROOTS = Array.from({ length: 10 }, (_, n) => `/home/u/src/project-${n}`);

function previewOf(tool: string, args: string[], cwd: string): string {
  return JSON.stringify({ tool, command: [tool, ...args], cwd, input: { path: "src/main.ts" } });
}

const rules: Rule[] = Array.from({ length: 1000 }, (_, n) => {
  const tool = TOOLS[n % TOOLS.length] as string;
  const root = ROOTS[n % ROOTS.length] as string;
  const kind = Math.floor(n / TOOLS.length) % 4;
  const pattern = kind === 0
    ? undefined
    : kind === 1
    ? `${previewOf(tool, ["run", `case-${n}`], root).slice(0, -30)}*`
    : kind === 2
    ? `*"command":["${tool}","run",*"cwd":"${root}"*`
    : `*"input":{"path":"src/*-${n}.ts"}}`;
  return {
    id: `r-${String(n).padStart(8, "0")}`,
    tool,
    ...(pattern === undefined ? {} : { pattern }),
    decision: n % 7 === 0 ? "deny" : "allow",
    scope: n % 3 === 0 ? "global" : { workspace: root },
  };
});

const QUERY = {
  tool: "tool-7",
  previewText: previewOf("tool-7", ["run", "case-7"], ROOTS[7] as string),
  root: ROOTS[7] as string,
};
if (decideByRules(rules, QUERY) === undefined) throw new Error("The bench query must match a rule");

Deno.bench(
  "decideByRules() with 1,000 rules, one preview",
  { group: "lookup", baseline: true },
  () => {
    decideByRules(rules, QUERY);
  },
);

Deno.bench("decideByRules() with 1,000 rules, a tool no rule names", { group: "lookup" }, () => {
  decideByRules(rules, { ...QUERY, tool: "unknown" });
});

const LONG = "a".repeat(10_000);
Deno.bench("matchPattern() *a*a*a*a*a*a*b against 10,000 a's", () => {
  matchPattern("*a*a*a*a*a*a*b", LONG);
});

const CONFIG = await Deno.makeTempDir({ prefix: "basis-rules-bench-" });
await Deno.writeTextFile(rulesFilePath(CONFIG), formatRulesDocument({ version: 1, rules }), {
  mode: 0o600,
});
globalThis.addEventListener("unload", () => Deno.removeSync(CONFIG, { recursive: true }));

Deno.bench("loadRules() of a 1,000-rule file, then one lookup", async () => {
  const loaded = await loadRules(CONFIG);
  decideByRules(loaded.rules, QUERY);
});
