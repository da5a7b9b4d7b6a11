// A prototype of the floor issue 24 aims at, not a floor of bench/run.ts (measured at 1.08×
// and 1.16× of spawn_cat.js and hello.js). Usage: deno run … proto_call.js ROOT NAME INPUT
// The least a `call` must do beyond spawning cat: read and parse the manifest (100 tools), check
// the one entry, parse the input, look the program up on PATH, append an audit line, spawn it in
// a process of its own (no setpriv/setsid launcher) with the input on stdin, relay its output.
const [root, name, inputText] = Deno.args;
const manifest = JSON.parse(Deno.readTextFileSync(`${root}/.basis/tools.json`));
const spec = manifest.tools[name];
if (typeof spec?.description !== "string" || !Array.isArray(spec.command)) Deno.exit(6);
const input = JSON.parse(inputText);
if (typeof input !== "object" || input === null) Deno.exit(4);
let program;
for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
  try {
    if (Deno.statSync(`${dir}/${spec.command[0]}`).isFile) {
      program = `${dir}/${spec.command[0]}`;
      break;
    }
  } catch { /* next */ }
}
const audit = Deno.openSync(`${Deno.env.get("BASIS_STATE_DIR")}/proto.jsonl`, {
  append: true,
  create: true,
});
audit.writeSync(
  new TextEncoder().encode(JSON.stringify({ type: "decision", tool: name, allowed: true }) + "\n"),
);
const child = new Deno.Command(program, {
  args: spec.command.slice(1),
  stdin: "piped",
  stdout: "piped",
  cwd: root,
}).spawn();
const writer = child.stdin.getWriter();
await writer.write(new TextEncoder().encode(JSON.stringify(input)));
await writer.close();
const { stdout, code } = await child.output();
audit.writeSync(
  new TextEncoder().encode(JSON.stringify({ type: "run", tool: name, exit_code: code }) + "\n"),
);
Deno.stdout.writeSync(stdout);
