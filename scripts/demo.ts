/**
 * `deno task demo`: runs the CLI on the example workspace the way a person would, printing each
 * command line and what it printed, with its exit code.
 *
 * @module
 */

const root = new URL("..", import.meta.url).pathname;
const main = `${root}src/main.ts`;
// The demo's rules, cache and audit trail live in a scratch directory, not in your own config.
const scratch = await Deno.makeTempDir({ prefix: "basis-demo-" });
const env = {
  BASIS_CONFIG_DIR: `${scratch}/config`,
  BASIS_CACHE_DIR: `${scratch}/cache`,
  BASIS_STATE_DIR: `${scratch}/state`,
};

const steps: { say: string; args: string[]; stdin?: string }[] = [
  { say: "The roster of the example workspace", args: ["list"] },
  { say: "One tool in full (env values are redacted)", args: ["show", "whoami"] },
  { say: "Validate the manifests", args: ["check"] },
  {
    say: "Call a tool (approved by policy here; see docs/approval.md)",
    args: ["call", "word_count", '{"text":"one two three\\nfour"}', "--approve", "always"],
  },
  {
    say: "Input is piped: the same tool, JSON on stdin, one JSON object out",
    args: ["call", "word_count", "--json", "--approve", "always"],
    stdin: '{"text": "piped words"}',
  },
  {
    say: "The schema gate refuses bad input before anything runs (exit 4)",
    args: ["call", "word_count", '{"txt":"typo"}', "--approve", "always"],
  },
  {
    say: "A failing tool: its stderr, then a one-line summary (exit 1)",
    args: ["call", "fail", '{"reason":"the disk is full"}', "--approve", "always"],
  },
  {
    say: "grep with optional flags, no wrapper: no match is a success, with its exit code 1",
    args: [
      "call",
      "search",
      '{"pattern":"no such text","ignore_case":true}',
      "--json",
      "--approve",
      "always",
    ],
  },
  {
    say: "A tool that outlives its timeout_ms of 1000 ms (exit 3)",
    args: ["call", "slow", '{"ms":5000}', "--approve", "always"],
  },
  {
    say: "No rule and no one to ask: denied, with the command that would allow it (exit 5)",
    args: ["call", "echo", '{"hello":"world"}'],
  },
  {
    say: "Remember a rule for echo in this workspace (kept in the user's config, never the repo)",
    args: ["rules", "add", "--tool", "echo", "--reason", "harmless"],
  },
  { say: "Now the same call runs without asking", args: ["call", "echo", '{"hello":"world"}'] },
  { say: "The remembered rules", args: ["rules", "list"] },
];

for (const step of steps) {
  console.log(`\n# ${step.say}\n$ basis-tools -C examples ${step.args.map(quote).join(" ")}`);
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", main, "-C", `${root}examples`, ...step.args],
    env,
    stdin: step.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  if (step.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(step.stdin));
    await writer.close();
  }
  const { code, stdout } = await child.output();
  await Deno.stdout.write(stdout);
  // A tool's output need not end with a newline (cat echoes the input as it is).
  const newline = stdout.length > 0 && stdout[stdout.length - 1] !== 10 ? "\n" : "";
  console.log(`${newline}[exit ${code}]`);
}

const audit = await Deno.readTextFile(`${scratch}/state/audit.jsonl`);
console.log(`\n# The audit trail: one JSON line per decision and per run\n${audit.trimEnd()}`);
await Deno.remove(scratch, { recursive: true });

function quote(arg: string): string {
  return /^[\w\-.,/:=@]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}
