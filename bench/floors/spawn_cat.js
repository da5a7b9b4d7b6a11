// The floor of `call` of a `cat` tool: spawn `cat`, write the input (the first argument) to its
// stdin, print what it printed. Usage: deno run … spawn_cat.js INPUT
const child = new Deno.Command("cat", { stdin: "piped", stdout: "piped" }).spawn();
const writer = child.stdin.getWriter();
await writer.write(new TextEncoder().encode(Deno.args[0]));
await writer.close();
const { stdout } = await child.output();
await Deno.stdout.write(stdout);
