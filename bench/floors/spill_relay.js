// The floor of `--json` with a big output (the spill): the same relay as output_relay.js, but the
// output goes where `--json` puts it: its first 50 KiB kept for the report, its first 16 MiB
// written to a new file (0600), the rest only counted; then one JSON object on stdout.
// Usage: deno run … spill_relay.js FILE PROGRAM [ARGS…]
import { relay, writeAll } from "./_relay.js";

const KEEP = 50 * 1024;
const SPILL = 16 * 1024 * 1024;
const [file, program, ...args] = Deno.args;
const child = new Deno.Command(program, { args, stdin: "piped", stdout: "piped" }).spawn();
const feed = (async () => {
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode("{}")).catch(() => {});
  await writer.close().catch(() => {});
})();
const spill = await Deno.open(file, { write: true, createNew: true, mode: 0o600 });
const kept = [];
let keptBytes = 0;
let total = 0;
await relay(child.stdout, async (chunk) => {
  if (keptBytes < KEEP) {
    const part = chunk.subarray(0, KEEP - keptBytes);
    kept.push(part.slice());
    keptBytes += part.length;
  }
  if (total < SPILL) await writeAll(spill, chunk.subarray(0, SPILL - total));
  total += chunk.length;
});
spill.close();
await feed;
const { code } = await child.status;
const stdout = new TextDecoder().decode(
  kept.reduce((all, part) => {
    const joined = new Uint8Array(all.length + part.length);
    joined.set(all);
    joined.set(part, all.length);
    return joined;
  }, new Uint8Array()),
);
console.log(JSON.stringify({ ok: code === 0, stdout, bytes: total, spill: file }, null, 2));
