/**
 * Remembered-rule lookup: one preview decided against 1,000 rules of mixed tools, conditions,
 * decisions and scopes (the shape `loadRules` returns); reading and validating that file (what a
 * fresh process pays before its first lookup); and the glob matcher on its own.
 *
 * Run: `deno bench -A bench/rules_bench.ts`
 */

import { decideCall } from "../src/approval/rules/decide.ts";
import { matchGlob } from "../src/approval/rules/glob.ts";
import { loadRules, rulesFilePath } from "../src/approval/rules/store.ts";
import type { Rule, RuleQuery } from "../src/approval/rules/types.ts";
import { formatRulesDocument } from "../src/approval/rules/validate.ts";

const TOOLS = Array.from({ length: 20 }, (_, n) => `tool-${n}`);
const ROOTS = Array.from({ length: 10 }, (_, n) => `/home/u/src/project-${n}`);

const rules: Rule[] = Array.from({ length: 1000 }, (_, n) => {
  const tool = TOOLS[n % TOOLS.length] as string;
  const root = ROOTS[n % ROOTS.length] as string;
  const kind = Math.floor(n / TOOLS.length) % 4;
  const program = `/usr/bin/${tool}`;
  const when = kind === 0
    ? { program, argv: [tool, "run", `case-${n}`], cwd: root }
    : kind === 1
    ? { program, argv: [tool, "run", { rest: true as const }] }
    : kind === 2
    ? { program, argv: [tool, { glob: "r*" }, { glob: `case-*${n}` }], cwd: { glob: `${root}*` } }
    : { program, input: { "/path": { glob: `src/*-${n}.ts` } } };
  return {
    id: `r-${String(n).padStart(8, "0")}`,
    tool,
    decision: n % 7 === 0 ? "deny" : n % 11 === 0 ? "ask" : "allow",
    scope: n % 3 === 0 ? "global" : { workspace: root },
    when,
  };
});

const QUERY: RuleQuery = {
  tool: "tool-7",
  kind: "tool",
  preview: {
    tool: "tool-7",
    program: "/usr/bin/tool-7",
    command: ["tool-7", "run", "case-7"],
    cwd: ROOTS[7] as string,
    env: [],
    sandbox: "unconfined",
    input: { path: "src/main.ts" },
  },
  sideEffect: "process",
  root: ROOTS[7] as string,
  source: "workspace",
};
if ((await decideCall(rules, QUERY)).match === undefined) {
  throw new Error("The bench query must match a rule");
}

Deno.bench(
  "decideByRules() with 1,000 rules, one preview",
  { group: "lookup", baseline: true },
  async () => {
    await decideCall(rules, QUERY);
  },
);

Deno.bench(
  "decideByRules() with 1,000 rules, a tool no rule names",
  { group: "lookup" },
  async () => {
    await decideCall(rules, { ...QUERY, tool: "unknown" });
  },
);

const LONG = "a".repeat(10_000);
Deno.bench("matchGlob() *a*a*a*a*a*a*b against 10,000 a's", () => {
  matchGlob("*a*a*a*a*a*a*b", LONG);
});

const CONFIG = await Deno.makeTempDir({ prefix: "basis-rules-bench-" });
await Deno.writeTextFile(rulesFilePath(CONFIG), formatRulesDocument({ version: 2, rules }), {
  mode: 0o600,
});
globalThis.addEventListener("unload", () => Deno.removeSync(CONFIG, { recursive: true }));

Deno.bench("loadRules() of a 1,000-rule file, then one lookup", async () => {
  const loaded = await loadRules(CONFIG);
  await decideCall(loaded.rules, QUERY);
});
