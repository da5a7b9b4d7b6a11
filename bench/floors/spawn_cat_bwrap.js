// The floor of a confined `call` of a `cat` tool: spawn the same bwrap command line the call
// started (program and arguments, read as a JSON array from the file named first), write the input
// (the second argument) to its stdin, print what it printed.
// Usage: deno run … spawn_cat_bwrap.js ARGV_FILE INPUT
const [program, ...args] = JSON.parse(Deno.readTextFileSync(Deno.args[0]));
const child = new Deno.Command(program, { args, stdin: "piped", stdout: "piped" }).spawn();
const writer = child.stdin.getWriter();
await writer.write(new TextEncoder().encode(Deno.args[1]));
await writer.close();
const { stdout } = await child.output();
await Deno.stdout.write(stdout);
