// The floor of the output direction (a tool that prints a lot): spawn the program, write a small
// input (`{}`) to its stdin, and relay its stdout with a reader loop.
// Usage: deno run … output_relay.js PROGRAM [ARGS…]
import { relay, writeAll } from "./_relay.js";

const [program, ...args] = Deno.args;
const child = new Deno.Command(program, { args, stdin: "piped", stdout: "piped" }).spawn();
const feed = (async () => {
  const writer = child.stdin.getWriter();
  // The program may end without reading its input.
  await writer.write(new TextEncoder().encode("{}")).catch(() => {});
  await writer.close().catch(() => {});
})();
await relay(child.stdout, (chunk) => writeAll(Deno.stdout, chunk));
await feed;
Deno.exit((await child.status).code);
