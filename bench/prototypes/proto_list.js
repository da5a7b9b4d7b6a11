// A prototype of the floor issue 24 aims at, not a floor of bench/run.ts (measured at 1.08×
// and 1.16× of spawn_cat.js and hello.js). Usage: deno run … proto_list.js ROOT
// The least `list` must do: read and parse the manifest (100 tools), check each entry's shape,
// look each program up on PATH (once per name), print a table.
const root = Deno.args[0];
const manifest = JSON.parse(Deno.readTextFileSync(`${root}/.basis/tools.json`));
const found = new Map();
const rows = [];
for (const [name, spec] of Object.entries(manifest.tools)) {
  if (typeof spec.description !== "string" || !Array.isArray(spec.command)) continue;
  const prog = spec.command[0];
  if (!found.has(prog)) {
    let path;
    for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
      try {
        if (Deno.statSync(`${dir}/${prog}`).isFile) {
          path = `${dir}/${prog}`;
          break;
        }
      } catch { /* next */ }
    }
    found.set(prog, path);
  }
  rows.push([name, spec.side_effect ?? "process", "workspace", spec.description]);
}
const width = Math.max(...rows.map((r) => r[0].length));
Deno.stdout.writeSync(
  new TextEncoder().encode(
    rows.map((r) => `${r[0].padEnd(width)}  ${r[1]}  ${r[2]}  ${r[3]}`).join("\n") + "\n",
  ),
);
