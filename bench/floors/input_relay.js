// The floor of the input direction (a big input through a `cat` tool): the work a call must do
// before and while the tool runs, and no more. Read all of stdin, check it is UTF-8 and parse it
// (the gate needs the value), write the bytes read to a `cat` child, and relay the child's stdout
// with a reader loop while writing. Usage: deno run … input_relay.js < input.json
import { relay, writeAll } from "./_relay.js";

const bytes = await new Response(Deno.stdin.readable).bytes();
JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
const child = new Deno.Command("cat", { stdin: "piped", stdout: "piped" }).spawn();
const feed = (async () => {
  const writer = child.stdin.getWriter();
  await writer.write(bytes);
  await writer.close();
})();
await relay(child.stdout, (chunk) => writeAll(Deno.stdout, chunk));
await feed;
Deno.exit((await child.status).code);
