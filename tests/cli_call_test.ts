import assert from "node:assert/strict";
import {
  assertNoStackTrace,
  CALL_JSON_KEYS,
  cli,
  cliCommand,
  FIXTURES,
  oneTool,
  processesLeftInGroup,
  scratch,
  spawnCli,
  unconfined,
} from "./_cli.ts";
import { say, wording } from "./_wording.ts";
import { loadLocale, messages, phrase } from "../src/locale/messages.ts";
import { strictJsonProblem } from "../src/json_text.ts";
import { findTool } from "../src/cli/_roster.ts";
import { BasisError, errorLines } from "../src/errors.ts";
import type { Roster, ToolSpec } from "../src/manifest/types.ts";
import { assertNoEnglish, CYRILLIC } from "./_no_english.ts";

const ALWAYS = ["--approve", "always"];

const WORD_SCHEMA = {
  type: "object",
  properties: {
    text: { type: "string" },
    opts: {
      type: "object",
      properties: {
        items: { type: "array", items: { type: "object", properties: { n: { type: "integer" } } } },
      },
    },
  },
  required: ["text"],
};

Deno.test("call runs a tool and passes the input byte-exact as compact JSON, with no shell", async () => {
  await using dirs = await scratch();
  const out = `${dirs.root}/stdin.txt`;
  await Deno.writeTextFile(
    `${dirs.root}/.basis/tools.json`,
    JSON.stringify(oneTool("capture", { command: [`${FIXTURES}/stdin_to_file.sh`, out] })),
  );
  const input = { text: `quotes " ' && $x \`id\` ; $(touch M) \n newline`, n: [1, { "é": "☃" }] };
  const pretty = JSON.stringify(input, null, 4);
  const result = await cli(dirs, ["call", "capture", pretty, ...ALWAYS]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(await Deno.readTextFile(out), JSON.stringify(input));
  // Shell syntax in the argv itself is passed as a literal argument, never interpreted.
  await Deno.writeTextFile(
    `${dirs.root}/.basis/tools.json`,
    JSON.stringify(oneTool("args", { command: ["echo", "$(touch M)", "`touch N`", "; touch O"] })),
  );
  const echoed = await cli(dirs, ["call", "args", "{}", ...ALWAYS]);
  assert.equal(echoed.stdout, "$(touch M) `touch N` ; touch O\n");
  for (const name of ["M", "N", "O"]) {
    await assert.rejects(Deno.stat(`${dirs.root}/${name}`), Deno.errors.NotFound);
  }
});

Deno.test("call reads the input from piped stdin, and from '-'", async () => {
  await using dirs = await scratch(oneTool("echo", { command: ["cat"] }));
  const piped = await cli(dirs, ["call", "echo", ...ALWAYS], { stdin: '{"a": 1}' });
  assert.equal(piped.code, 0, piped.stderr);
  assert.equal(piped.stdout, '{"a":1}');
  const dash = await cli(dirs, ["call", "echo", "-", ...ALWAYS], { stdin: '{"b": [2]}' });
  assert.equal(dash.stdout, '{"b":[2]}');
});

Deno.test("call with --json prints one object with every documented field", async () => {
  await using dirs = await scratch(oneTool("echo", { command: ["cat"] }));
  const result = await cli(dirs, ["--json", "call", "echo", '{"a":1}', ...ALWAYS]);
  assert.equal(result.code, 0, result.stderr);
  const object = JSON.parse(result.stdout);
  assert.deepEqual(Object.keys(object), CALL_JSON_KEYS);
  assert.equal(object.ok, true);
  assert.equal(object.result, '{"a":1}');
  assert.equal(object.exit_code, 0);
  assert.equal(object.error, null);
});

Deno.test("call of an unknown tool exits 2 and suggests a close name", async () => {
  await using dirs = await scratch(oneTool("echo", { command: ["cat"] }));
  const result = await cli(dirs, ["call", "ecoh", "{}", ...ALWAYS]);
  assert.equal(result.code, 2);
  const near = say("cli.unknown_tool_near", { tool: '"ecoh"', names: '"echo"' });
  assert.equal(result.stderr, `basis-tools: ${near}\n`);
});

Deno.test("call with input that is not JSON exits 2 with one line", async () => {
  await using dirs = await scratch(oneTool("echo", { command: ["cat"] }));
  const result = await cli(dirs, ["call", "echo", "{not json", ...ALWAYS]);
  assert.equal(result.code, 2);
  assert.equal(result.stderr.split("\n").length, 2, result.stderr);
  assert.match(result.stderr, /as JSON/);
  assertNoStackTrace(result.stderr);
});

Deno.test("call with input that is not an object exits 4", async () => {
  await using dirs = await scratch(oneTool("echo", { command: ["cat"] }));
  for (const input of ["[1,2]", "7", '"text"', "null"]) {
    const result = await cli(dirs, ["call", "echo", input, ...ALWAYS]);
    assert.equal(result.code, 4, `${input}: ${result.stderr}`);
    assert.match(result.stderr, /object/);
    assert.equal(result.stdout, "");
  }
});

Deno.test("call refuses a missing required field and a wrong type deep in the input (exit 4, nothing runs)", async () => {
  await using dirs = await scratch();
  const marker = `${dirs.root}/ran`;
  await Deno.writeTextFile(
    `${dirs.root}/.basis/tools.json`,
    JSON.stringify(
      oneTool("wc", {
        input_schema: WORD_SCHEMA,
        command: [`${FIXTURES}/stdin_to_file.sh`, marker],
      }),
    ),
  );
  const missing = await cli(dirs, ["call", "wc", "{}", ...ALWAYS]);
  assert.equal(missing.code, 4);
  assert.match(missing.stderr, /\/text/);
  const deep = await cli(dirs, [
    "call",
    "wc",
    '{"text":"x","opts":{"items":[{"n":1},{"n":"two"}]}}',
    ...ALWAYS,
  ]);
  assert.equal(deep.code, 4);
  assert.match(deep.stderr, /\/opts\/items\/1\/n/);
  assert.match(deep.stderr, /integer/);
  assertNoStackTrace(deep.stderr);
  await assert.rejects(Deno.stat(marker), Deno.errors.NotFound);
});

Deno.test("call of a program that is not found or not executable is unavailable: exit 6", async () => {
  await using dirs = await scratch({
    schema: 1,
    tools: {
      missing: { description: "m", input_schema: {}, command: ["no-such-program-basis"] },
      notexec: { description: "n", input_schema: {}, command: [`${FIXTURES}/not_executable.sh`] },
    },
  });
  const missing = await cli(dirs, ["call", "missing", "{}", ...ALWAYS]);
  assert.equal(missing.code, 6);
  assert.match(
    missing.stderr,
    new RegExp(
      `tools\\.json: tool "missing": command\\[0\\]: ${
        wording("start.not_on_path", { program: '"no-such-program-basis"' }).source
      }`,
    ),
  );
  const notexec = await cli(dirs, ["call", "notexec", "{}", ...ALWAYS]);
  assert.equal(notexec.code, 6);
  assert.match(notexec.stderr, /tool "notexec": command\[0\]: .*not_executable\.sh/);
  // Nothing was asked or run: the audit trail holds no decision.
  const json = await cli(dirs, ["--json", "call", "missing", "{}", ...ALWAYS]);
  assert.equal(JSON.parse(json.stdout).error.kind, "manifest_invalid");
  assertNoStackTrace(missing.stderr + notexec.stderr);
});

Deno.test("call of a tool that exits 4 shows its stderr and exits 1", async () => {
  await using dirs = await scratch(oneTool("boom", { command: [`${FIXTURES}/stderr_exit4.sh`] }));
  const result = await cli(dirs, ["call", "boom", "{}", ...ALWAYS]);
  assert.equal(result.code, 1);
  assert.match(result.stderr, /boom: the disk is full/);
  assert.match(result.stderr, /code 4/);
  const json = await cli(dirs, ["--json", "call", "boom", "{}", ...ALWAYS]);
  const object = JSON.parse(json.stdout);
  assert.equal(object.exit_code, 4);
  assert.equal(object.error.kind, "tool_failed");
  assert.match(object.error.message, /boom: the disk is full/);
});

Deno.test("call of a tool that exits 7 silently exits 1 and names the code", async () => {
  await using dirs = await scratch(oneTool("seven", { command: [`${FIXTURES}/exit7.sh`] }));
  const result = await cli(dirs, ["call", "seven", "{}", ...ALWAYS]);
  assert.equal(result.code, 1);
  assert.match(result.stderr, /code 7/);
});

Deno.test("call of a tool killed by a signal exits 1 and names the signal", async () => {
  await using dirs = await scratch(oneTool("killed", { command: [`${FIXTURES}/kill_self.sh`] }));
  const result = await cli(dirs, ["call", "killed", "{}", ...ALWAYS]);
  assert.equal(result.code, 1);
  assert.match(result.stderr, /SIGKILL/);
});

Deno.test("call of a tool that prints nothing exits 0 and says so", async () => {
  await using dirs = await scratch(oneTool("quiet", { command: ["true"] }));
  const result = await cli(dirs, ["call", "quiet", "{}", ...ALWAYS]);
  assert.equal(result.code, 0);
  assert.equal(result.stdout, "");
  assert.match(result.stderr, /printed nothing/);
  const json = JSON.parse((await cli(dirs, ["--json", "call", "quiet", "{}", ...ALWAYS])).stdout);
  assert.match(json.result, /printed nothing/);
});

Deno.test("call stops a tool at its timeout_ms in milliseconds (exit 3, well under a second)", async () => {
  await using dirs = await scratch(
    oneTool("sleepy", { command: ["sleep", "30"], timeout_ms: 150 }),
  );
  const result = await cli(dirs, ["call", "sleepy", "{}", ...ALWAYS]);
  assert.equal(result.code, 3);
  assert.match(result.stderr, wording("run.timed_out", { ms: 150 }));
  const json = await cli(dirs, ["--json", "call", "sleepy", "{}", ...ALWAYS]);
  assert.equal(json.code, 3);
  const object = JSON.parse(json.stdout);
  assert.equal(object.timed_out, true);
  assert.equal(object.error.kind, "timed_out");
  // The run itself (not the CLI's start-up): 150 ms, a signal, and the group gone.
  assert.ok(object.duration_ms >= 150 && object.duration_ms < 1000, `${object.duration_ms} ms`);
});

Deno.test({
  name: "call stops the whole process group at the timeout: no grandchild survives",
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using dirs = await scratch();
  await unconfined(dirs);
  const pidFile = `${dirs.root}/pgid`;
  await Deno.writeTextFile(
    `${dirs.root}/.basis/tools.json`,
    JSON.stringify(
      oneTool("forks", { command: [`${FIXTURES}/grandchild.sh`, pidFile], timeout_ms: 300 }),
    ),
  );
  const result = await cli(dirs, ["call", "forks", "{}", ...ALWAYS]);
  assert.equal(result.code, 3, result.stderr);
  const pgid = Number(await Deno.readTextFile(pidFile));
  assert.ok(pgid > 0);
  assert.deepEqual(await processesLeftInGroup(pgid), []);
});

Deno.test("call --timeout overrides the manifest's timeout_ms", async () => {
  await using dirs = await scratch(oneTool("sleepy", { command: ["sleep", "30"] }));
  const result = await cli(dirs, ["call", "sleepy", "{}", "--timeout", "120", ...ALWAYS]);
  assert.equal(result.code, 3);
  assert.match(result.stderr, /120 ms/);
  const bad = await cli(dirs, ["call", "sleepy", "{}", "--timeout", "1.5", ...ALWAYS]);
  assert.equal(bad.code, 2);
});

Deno.test("call gives 10 MiB of input to a program that never reads it and exits 0", async () => {
  await using dirs = await scratch(oneTool("ignores", { command: ["true"] }));
  const input = JSON.stringify({ blob: "x".repeat(10 * 1024 * 1024) });
  const result = await cli(dirs, ["call", "ignores", ...ALWAYS], { stdin: input });
  assert.equal(result.code, 0, result.stderr);
  assertNoStackTrace(result.stderr);
});

Deno.test({
  name: "Ctrl-C during a call stops the tool's process group and exits 130",
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using dirs = await scratch();
  await unconfined(dirs);
  const pidFile = `${dirs.root}/pgid`;
  await Deno.writeTextFile(
    `${dirs.root}/.basis/tools.json`,
    JSON.stringify(oneTool("forks", { command: [`${FIXTURES}/grandchild.sh`, pidFile] })),
  );
  const child = spawnCli(dirs, ["call", "forks", "{}", ...ALWAYS]);
  // Wait until the tool says it started (its first line of output).
  const reader = child.stdout.getReader();
  let seen = "";
  while (!seen.includes("started")) {
    const { value, done } = await reader.read();
    if (done) break;
    seen += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  child.kill("SIGINT");
  const status = await child.status;
  await child.stdout.cancel();
  const stderr = new TextDecoder().decode(
    (await new Response(child.stderr).arrayBuffer()) as ArrayBuffer,
  );
  assert.equal(status.code, 130, stderr);
  const pgid = Number(await Deno.readTextFile(pidFile));
  assert.deepEqual(await processesLeftInGroup(pgid), []);
});

Deno.test("call output beyond the cap is cut for --json with the full output in a spill file", async () => {
  await using dirs = await scratch(oneTool("lines", { command: [`${FIXTURES}/lines.sh`, "5000"] }));
  const result = await cli(dirs, ["--json", "call", "lines", "{}", ...ALWAYS]);
  assert.equal(result.code, 0, result.stderr);
  const object = JSON.parse(result.stdout);
  assert.equal(object.truncated, true);
  const path = /full output: (\S+?)\]?$/m.exec(object.result)?.[1];
  assert.ok(path, object.result.slice(-300));
  const full = await Deno.readTextFile(path);
  assert.equal(full.split("\n").length - 1, 5000);
  assert.ok(object.result.split("\n").length <= 2002);
  // Streaming to a terminal passes everything through.
  const streamed = await cli(dirs, ["call", "lines", "{}", ...ALWAYS]);
  assert.equal(streamed.stdout.split("\n").length - 1, 5000);
  // --result prints the result a model reads: its note names the spill file too, in each locale.
  for (
    const [locale, note] of [["en-US", /full output: (\S+)\]\n$/], [
      "uk-UA",
      /повний вивід: (\S+)\]\n$/,
    ]] as const
  ) {
    const cut = await cli(dirs, ["call", "lines", "{}", "--result", "--locale", locale, ...ALWAYS]);
    assert.equal(cut.code, 0, cut.stderr);
    assert.ok(cut.stdout.split("\n").length <= 2002);
    const spilled = note.exec(cut.stdout)?.[1];
    assert.ok(spilled, cut.stdout.slice(-300));
    assert.equal((await Deno.readTextFile(spilled)).split("\n").length - 1, 5000);
  }
});

Deno.test("env layering: inherited, then --env pairs, then the manifest's env", async () => {
  await using dirs = await scratch(
    // Env values are secrets, redacted from the output: the tool shows them upper-cased.
    oneTool("env", {
      command: ["sh", "-c", 'echo "$A $B $C" | tr a-z A-Z'],
      env: { C: "from-manifest" },
    }),
  );
  const result = await cli(
    dirs,
    ["call", "env", "{}", "--env", "B=from-flag", "--env", "C=from-flag", ...ALWAYS],
    { env: { A: "inherited", B: "inherited", C: "inherited" } },
  );
  assert.equal(result.stdout, "INHERITED FROM-FLAG FROM-MANIFEST\n");
  const bad = await cli(dirs, ["call", "env", "{}", "--env", "NOEQUALS", ...ALWAYS]);
  assert.equal(bad.code, 2);
  assert.doesNotMatch(bad.stderr, /NOEQUALS/);
});

Deno.test("a call no rule or policy allows is denied with exit 5 and says how to allow it", async () => {
  await using dirs = await scratch();
  const marker = `${dirs.root}/ran`;
  await Deno.writeTextFile(
    `${dirs.root}/.basis/tools.json`,
    JSON.stringify(oneTool("t", { command: [`${FIXTURES}/stdin_to_file.sh`, marker] })),
  );
  const result = await cli(dirs, ["call", "t", "{}"]);
  assert.equal(result.code, 5);
  assert.match(result.stderr, /--approve always/);
  const never = await cli(dirs, ["call", "t", "{}", "--approve", "never"]);
  assert.equal(never.code, 5);
  const env = await cli(dirs, ["call", "t", "{}"], { env: { BASIS_APPROVE: "never" } });
  assert.equal(env.code, 5);
  await assert.rejects(Deno.stat(marker), Deno.errors.NotFound);
  const allowed = await cli(dirs, ["call", "t", "{}"], { env: { BASIS_APPROVE: "always" } });
  assert.equal(allowed.code, 0);
  await Deno.stat(marker);
  const bad = await cli(dirs, ["call", "t", "{}", "--approve", "maybe"]);
  assert.equal(bad.code, 2);
});

Deno.test("bad input never reaches the approver: a schema refusal wins over a denial", async () => {
  await using dirs = await scratch(oneTool("wc", { input_schema: WORD_SCHEMA, command: ["cat"] }));
  const result = await cli(dirs, ["call", "wc", "{}", "--approve", "never"]);
  assert.equal(result.code, 4);
});

Deno.test("a reader that closes stdout early stops only the relay: the tool runs to its end and the exit code is its own", async () => {
  await using dirs = await scratch();
  const done = `${dirs.root}/done`;
  // A megabyte of output, far more than a pipe holds, then a mark that the tool got to its end.
  const script = `head -c 1048576 /dev/zero; printf ok > '${done}'; exit $0`;
  for (const [code, exit] of [["0", 0], ["3", 1]] as const) {
    await Deno.remove(done).catch(() => {});
    await Deno.writeTextFile(
      `${dirs.root}/.basis/tools.json`,
      JSON.stringify(oneTool("big", { command: ["/bin/sh", "-c", script, code] })),
    );
    const child = spawnCli(dirs, ["call", "big", "{}", ...ALWAYS]);
    const reader = child.stdout.getReader();
    await reader.read();
    await reader.cancel();
    const status = await child.status;
    const stderr = new TextDecoder().decode(
      (await new Response(child.stderr).arrayBuffer()) as ArrayBuffer,
    );
    assert.equal(status.code, exit, stderr);
    assertNoStackTrace(stderr);
    assert.equal(await Deno.readTextFile(done), "ok", "the tool ran to its end");
  }
});

/** A manifest whose tool writes its stdin to `out`, with the schema and env given. */
function capture(out: string, fields: Record<string, unknown> = {}): unknown {
  return oneTool("capture", { command: [`${FIXTURES}/stdin_to_file.sh`, out], ...fields });
}

Deno.test("call passes every number to the program exactly as written, from the argument and from stdin", async () => {
  await using dirs = await scratch();
  const out = `${dirs.root}/stdin.txt`;
  await Deno.writeTextFile(`${dirs.root}/.basis/tools.json`, JSON.stringify(capture(out)));
  const written =
    '{"n":12345678901234567890,"x":[1.0,-0,1E2,0.1,1e-300,2.50e+3],"s":"1.0","k":{"1.0":7}}';
  const spaced = written.replaceAll(",", ", ").replaceAll(":", ": ");
  for (const stdin of [undefined, spaced, `\ufeff${spaced}\n`]) {
    const args = ["call", "capture", ...(stdin === undefined ? [spaced] : []), ...ALWAYS];
    const result = await cli(dirs, args, stdin === undefined ? {} : { stdin });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(await Deno.readTextFile(out), written);
  }
  // A large input, compact or not, keeps its numbers too.
  const blob = "x".repeat(70_000);
  for (const text of [`{"b":"${blob}","p":1.50}`, `{ "b": "${blob}", "p": 1.50 }`]) {
    const result = await cli(dirs, ["call", "capture", "-", ...ALWAYS], { stdin: text });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(await Deno.readTextFile(out), `{"b":"${blob}","p":1.50}`);
  }
});

Deno.test("call refuses a number JSON cannot hold as a finite double, naming the field (exit 4, nothing runs)", async () => {
  await using dirs = await scratch();
  const out = `${dirs.root}/stdin.txt`;
  const schema = { type: "object", properties: { id: { type: "integer", minimum: 1 } } };
  await Deno.writeTextFile(
    `${dirs.root}/.basis/tools.json`,
    JSON.stringify(capture(out, { input_schema: schema })),
  );
  for (const input of ['{"id":1e400}', '{"list":[1,-1e999]}']) {
    const result = await cli(dirs, ["call", "capture", input, ...ALWAYS]);
    assert.equal(result.code, 4, result.stderr);
    assert.match(
      result.stderr,
      new RegExp(`schema: /(id|list/1): ${wording("schema.not_finite").source}`),
    );
    assertNoStackTrace(result.stderr);
  }
  const json = await cli(dirs, ["call", "capture", '{"id":1e400}', "--json", ...ALWAYS]);
  assert.equal(json.code, 4);
  assert.equal(JSON.parse(json.stdout).error.kind, "invalid_input");
  // Too small is refused too: it would be judged as 0 while the program got 1e-400.
  for (const input of ['{"id":1e-400}', `{"n":[0, 0.${"0".repeat(400)}1]}`]) {
    const result = await cli(dirs, ["call", "capture", input, ...ALWAYS]);
    assert.equal(result.code, 4, result.stderr);
    assert.match(
      result.stderr,
      new RegExp(`: /(id|n/1): ${wording("schema.underflow").source}`),
    );
  }
  // Zeros written otherwise are zeros.
  const zero = await cli(dirs, ["call", "capture", '{"id":1,"z":[0.0,-0e5,0E-400]}', ...ALWAYS]);
  assert.equal(zero.code, 0, zero.stderr);
  assert.equal(await Deno.readTextFile(out), '{"id":1,"z":[0.0,-0e5,0E-400]}');
  await Deno.remove(out);
  await assert.rejects(Deno.stat(out), Deno.errors.NotFound);
});

Deno.test("call refuses empty stdin as it refuses an empty INPUT (exit 2); with no INPUT, /dev/null means {}", async () => {
  await using dirs = await scratch();
  const out = `${dirs.root}/stdin.txt`;
  await Deno.writeTextFile(`${dirs.root}/.basis/tools.json`, JSON.stringify(capture(out)));
  const empty = await cli(dirs, ["call", "capture", "", ...ALWAYS]);
  assert.equal(empty.code, 2);
  for (
    const [args, stdin] of [[[], ""], [["-"], ""], [[], " \n\t"], [["-"], "\ufeff"]] as const
  ) {
    const result = await cli(dirs, ["call", "capture", ...args, ...ALWAYS], { stdin });
    assert.equal(result.code, 2, `${JSON.stringify(stdin)}: ${result.stderr}`);
    assert.equal(result.stderr, empty.stderr);
  }
  await assert.rejects(Deno.stat(out), Deno.errors.NotFound);
  // stdin closed (/dev/null) and no INPUT: nothing was given, the input is {}.
  const none = await cli(dirs, ["call", "capture", ...ALWAYS]);
  assert.equal(none.code, 0, none.stderr);
  assert.equal(await Deno.readTextFile(out), "{}");
});

Deno.test("call reads no device on stdin without INPUT ({}), and at most 128 MiB of stdin otherwise (exit 2, nothing runs)", async () => {
  await using dirs = await scratch();
  const out = `${dirs.root}/stdin.txt`;
  await Deno.writeTextFile(`${dirs.root}/.basis/tools.json`, JSON.stringify(capture(out)));
  // stdin on /dev/zero, which never ends: the shell opens it, the CLI gets it as fd 0.
  const fromZero = async (args: string[]) => {
    const { command, args: cliArgs, ...rest } = cliCommand(dirs, ["call", "capture", ...args]);
    const output = await new Deno.Command("/bin/sh", {
      args: ["-c", 'exec "$@" < /dev/zero', "sh", command, ...cliArgs],
      ...rest,
      stdout: "piped",
      stderr: "piped",
    }).output();
    return { code: output.code, stderr: new TextDecoder().decode(output.stderr) };
  };
  const device = await fromZero(ALWAYS);
  assert.equal(device.code, 0, device.stderr);
  assert.equal(await Deno.readTextFile(out), "{}");
  await Deno.remove(out);
  const dash = await fromZero(["-", ...ALWAYS]);
  assert.equal(dash.code, 2, dash.stderr);
  assert.equal(
    dash.stderr,
    `basis-tools: ${
      say("cli.input_too_large", { tool: '"capture"', size: phrase("size.mib", { count: 128 }) })
    }\n`,
  );
  await assert.rejects(Deno.stat(out), Deno.errors.NotFound);
});

Deno.test("an argument too long for the system names the tool's program; the audit trail records it by size and digest", async () => {
  await using dirs = await scratch();
  await Deno.writeTextFile(
    `${dirs.root}/.basis/tools.json`,
    JSON.stringify(oneTool("echo", {
      input_schema: { type: "object", properties: { v: { type: "string" } }, required: ["v"] },
      command: ["/bin/echo", { input: "v" }],
    })),
  );
  // One argument over the 128 KiB Linux takes (E2BIG), and over the audit trail's limit.
  const value = "a".repeat(200_000);
  const audit = `${dirs.stateDir}/audit.jsonl`;
  const result = await cli(dirs, ["call", "echo", "-", ...ALWAYS, "--audit-log", audit], {
    stdin: JSON.stringify({ v: value }),
  });
  assert.equal(result.code, 1, result.stderr);
  const program = JSON.stringify(Deno.realPathSync("/bin/echo"));
  assert.match(result.stderr, wording("start.failed", { program }));
  assert.doesNotMatch(result.stderr, /setsid|bwrap/);
  const [decision] = (await Deno.readTextFile(audit)).split("\n");
  assert.ok(decision!.length < 4096, `a decision line of ${decision!.length} characters`);
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value)),
  );
  const hex = Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
  assert.deepEqual(JSON.parse(decision!).preview.command, [
    "/bin/echo",
    `[argument of 200000 bytes, sha256 ${hex}, not recorded]`,
  ]);
});

Deno.test("call refuses stdin that is not UTF-8, naming the offset of the bad bytes (exit 2, nothing runs)", async () => {
  await using dirs = await scratch();
  const out = `${dirs.root}/stdin.txt`;
  await Deno.writeTextFile(`${dirs.root}/.basis/tools.json`, JSON.stringify(capture(out)));
  const utf8 = (text: string) => new TextEncoder().encode(text);
  const cases: [Uint8Array, number][] = [
    [new Uint8Array([...utf8('{"a":"'), 0xff, ...utf8('"}')]), 6],
    [new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('{"a":"é'), 0xc3, 0x28, ...utf8('"}')]), 11],
    [new Uint8Array([...utf8('{"a":"'), 0xed, 0xa0, 0x80, ...utf8('"}')]), 6],
  ];
  for (const [stdin, offset] of cases) {
    const result = await cli(dirs, ["call", "capture", ...ALWAYS], { stdin });
    assert.equal(result.code, 2, result.stderr);
    assert.equal(
      result.stderr,
      `basis-tools: ${say("cli.input_not_utf8", { tool: '"capture"', offset })}\n`,
    );
  }
  await assert.rejects(Deno.stat(out), Deno.errors.NotFound);
});

Deno.test("call refuses input nested deeper than 256 levels (exit 4), with secrets and a rule in place; at the limit it runs and is audited", async () => {
  await using dirs = await scratch();
  const out = `${dirs.root}/stdin.txt`;
  const secret = "deep-secret-7f3a";
  await Deno.writeTextFile(
    `${dirs.root}/.basis/tools.json`,
    JSON.stringify(capture(out, { env: { TOKEN: secret } })),
  );
  const nested = (depth: number, leaf: string) =>
    `{"a":${"[".repeat(depth - 1)}${leaf}${"]".repeat(depth - 1)}}`;
  const rule = await cli(dirs, ["rules", "add", "--tool", "capture", "--deny", "--reason", "no"]);
  assert.equal(rule.code, 0, rule.stderr);
  for (const depth of [257, 3_000, 30_000]) {
    const result = await cli(dirs, ["call", "capture", "-", ...ALWAYS], {
      stdin: nested(depth, JSON.stringify(secret)),
    });
    assert.equal(result.code, 4, `${depth}: ${result.stderr.slice(0, 300)}`);
    assert.match(result.stderr, new RegExp(`: ${say("schema.too_deep", { limit: 256 })}\\n$`));
    assertNoStackTrace(result.stderr);
    assert.ok(!result.stderr.includes(secret));
  }
  await assert.rejects(Deno.stat(out), Deno.errors.NotFound);
  // As deep as allowed: decided (here by the rule, which denies), and the decision recorded.
  const limit = await cli(dirs, ["call", "capture", "-", ...ALWAYS], {
    stdin: nested(256, JSON.stringify(secret)),
  });
  assert.equal(limit.code, 5, limit.stderr);
  const audit = await Deno.readTextFile(`${dirs.stateDir}/audit.jsonl`);
  const decisions = audit.trim().split("\n").map((line) => JSON.parse(line));
  assert.equal(decisions.length, 1);
  assert.equal(decisions[0].type, "decision");
  assert.equal(decisions[0].allowed, false);
  assert.ok(!audit.includes(secret), "no secret in the audit trail");
  assert.ok(audit.includes("[redacted]"));
});

/** How long a run may take before it counts as hung (JavaScript's engine would take hours). */
const WATCHDOG_MS = 60_000;

Deno.test("call answers at once for a schema pattern that backtracks for hours in JavaScript, fresh and cached (exit 4)", async () => {
  await using dirs = await scratch();
  const out = `${dirs.root}/stdin.txt`;
  const schema = { type: "object", properties: { s: { type: "string", pattern: "^(a+)+$" } } };
  await Deno.writeTextFile(
    `${dirs.root}/.basis/tools.json`,
    JSON.stringify(capture(out, { input_schema: schema })),
  );
  // 44 bytes: JavaScript's backtracking tries about 2^43 ways to split the a's.
  const text = `${"a".repeat(43)}!`;
  assert.equal(new TextEncoder().encode(text).length, 44);
  const input = JSON.stringify({ s: text });
  const validators = () => [...Deno.readDirSync(`${dirs.cacheDir}/validators`)].map((f) => f.name);
  let fresh: string[] = [];
  for (const pass of ["fresh", "cached"]) {
    const child = spawnCli(dirs, ["call", "capture", input, ...ALWAYS]);
    // A watchdog, not a timing: without one a regression would hang the suite.
    const watchdog = setTimeout(() => child.kill("SIGKILL"), WATCHDOG_MS);
    const output = await child.output();
    clearTimeout(watchdog);
    const stderr = new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 4, `${pass}: killed by the watchdog, or: ${stderr}`);
    assert.match(
      stderr,
      new RegExp(`/s: ${wording("schema.pattern", { pattern: "^(a+)+$" }).source}`),
    );
    if (pass === "fresh") fresh = validators().sort();
  }
  assert.ok(fresh.length > 0);
  assert.deepEqual(
    validators().sort(),
    fresh,
    "the second call read the validators from the cache",
  );
  const ok = await cli(dirs, [
    "call",
    "capture",
    JSON.stringify({ s: "a".repeat(44) }),
    ...ALWAYS,
  ]);
  assert.equal(ok.code, 0, ok.stderr);
});

// --- Wording in en-US and uk-UA ---
// Manifest problems, spawn.json problems and call inputs that are not JSON, in both locales: every
// problem carries a phrase as its reason, every manifest and spawn.json
// message is reached by a real document, and the Ukrainian lines hold no English prose.

await loadLocale("uk-UA");
const EN = messages("en-US");
const UK = messages("uk-UA");

Deno.test("a call input that is not JSON is described by kind and place, never echoed", async () => {
  const cases: [string, string, string][] = [
    ['{"a":1', 'unexpected end of file, expected "}" at 1:7', "рядок 1, стовпець 7"],
    [
      '{"a": hunter2secret}',
      "unexpected unquoted text, expected a value at 1:7",
      "текст без лапок",
    ],
    ["{'a': 1}", "unexpected single-quoted text (use double quotes)", "в одинарних лапках"],
    ['{"a": 1 // note\n}', "comments are not allowed at 1:9", "коментарі не дозволені"],
    ["", "unexpected end of file", "кінець файлу"],
  ];
  for (const [text, english, ukrainian] of cases) {
    const { position, reason } = await strictJsonProblem(text);
    const at = position === undefined ? "" : ` at ${position.line}:${position.column}`;
    assert.ok(`${EN.say(reason)}${at}`.startsWith(english), `${text}: ${EN.say(reason)}${at}`);
    const line = UK.say(reason) +
      (position ? ` (рядок ${position.line}, стовпець ${position.column})` : "");
    assert.ok(line.includes(ukrainian), line);
  }

  await using dirs = await scratch({
    schema: 1,
    tools: { echo: { description: "x", input_schema: { type: "object" }, command: ["cat"] } },
  });
  const en = await cli(dirs, ["call", "echo", '{"token": hunter2secret}', "--approve", "always"]);
  assert.equal(en.code, 2);
  assert.equal(
    en.stderr,
    'basis-tools: Cannot parse the input of tool "echo" as JSON: unexpected unquoted text, expected a value at 1:11\n',
  );
  const uk = await cli(dirs, [
    "call",
    "echo",
    '{"token": hunter2secret}',
    "--approve",
    "always",
    "--locale",
    "uk-UA",
  ]);
  assert.equal(
    uk.stderr,
    'basis-tools: Не вдалося розібрати вхідні дані інструмента "echo" як JSON: тут не очікувалося: текст без лапок; очікується значення (рядок 1, стовпець 11)\n',
  );
  const spawn = await cli(dirs, ["call", "spawn", "{", "--locale", "uk-UA", "--json"]);
  assert.match(
    JSON.parse(spawn.stdout).error.message,
    /"spawn" як JSON: тут не очікувалося: кінець вхідних даних/,
  );
});

/** Three tools one edit away from "eco". */
const NEAR_TOOLS = {
  schema: 1,
  tools: Object.fromEntries(
    ["ecco", "echo", "ecoh"].map((name) => [
      name,
      { description: `The ${name} tool`, input_schema: { type: "object" }, command: ["cat"] },
    ]),
  ),
};

Deno.test("show NAME with an unknown tool speaks en-US and uk-UA, in text and --json", async () => {
  await using dirs = await scratch(NEAR_TOOLS);
  const en = await cli(dirs, ["show", "nope"]);
  assert.equal(en.code, 2);
  assert.equal(en.stdout, "");
  assert.equal(en.stderr, 'basis-tools: Cannot find tool "nope"; see basis-tools list\n');
  const uk = await cli(dirs, ["show", "nope", "--locale", "uk-UA"]);
  assert.equal(uk.code, 2);
  assert.equal(uk.stdout, "");
  assert.equal(
    uk.stderr,
    'basis-tools: Не вдалося знайти інструмент "nope"; див. basis-tools list\n',
  );
  assertNoEnglish(uk.stderr, en.stderr, [/\bbasis-tools list\b/g]);

  const enJson = await cli(dirs, ["show", "nope", "--json"]);
  assert.equal(enJson.code, 2);
  assert.deepEqual(JSON.parse(enJson.stdout), {
    ok: false,
    error: { kind: "unknown_tool", message: 'Cannot find tool "nope"; see basis-tools list' },
  });
  const ukJson = await cli(dirs, ["show", "nope", "--json", "--locale", "uk-UA"]);
  assert.equal(ukJson.code, 2);
  assert.deepEqual(JSON.parse(ukJson.stdout), {
    ok: false,
    error: {
      kind: "unknown_tool",
      message: 'Не вдалося знайти інструмент "nope"; див. basis-tools list',
    },
  });

  // Near names: every one, listed.
  const near = await cli(dirs, ["show", "eco"]);
  assert.equal(
    near.stderr,
    'basis-tools: Cannot find tool "eco"; did you mean "ecco", "echo" or "ecoh"?\n',
  );
  const nearUk = await cli(dirs, ["show", "eco", "--locale", "uk-UA"]);
  assert.equal(
    nearUk.stderr,
    'basis-tools: Не вдалося знайти інструмент "eco"; можливо, ви мали на увазі ' +
      '"ecco", "echo" або "ecoh"?\n',
  );
});

Deno.test("call with an unknown tool speaks uk-UA in text and --json, and so does an empty roster", async () => {
  await using dirs = await scratch(NEAR_TOOLS);
  await using empty = await scratch({ schema: 1, tools: {} });
  const text = await cli(dirs, ["call", "ecoh1", "{}", "--locale", "uk-UA"]);
  assert.equal(text.code, 2);
  assert.equal(
    text.stderr,
    'basis-tools: Не вдалося знайти інструмент "ecoh1"; можливо, ви мали на увазі ' +
      '"ecoh" або "echo"?\n',
  );
  const json = await cli(dirs, ["call", "nope", "{}", "--json", "--locale", "uk-UA"]);
  assert.equal(json.code, 2);
  const parsed = JSON.parse(json.stdout);
  assert.equal(parsed.tool, "nope");
  assert.deepEqual(parsed.error, {
    kind: "unknown_tool",
    message: 'Не вдалося знайти інструмент "nope"; див. basis-tools list',
  });

  const none = await cli(empty, ["show", "nope"]);
  const declared = phrase("join.one", { item: JSON.stringify(`${empty.root}/.basis/tools.json`) });
  assert.equal(
    none.stderr,
    `basis-tools: ${say("cli.unknown_tool_none", { tool: '"nope"', files: declared })}\n`,
  );
  const noneUk = await cli(empty, ["show", "nope", "--locale", "uk-UA"]);
  assert.equal(noneUk.code, 2);
  assert.match(noneUk.stderr, /^basis-tools: Не вдалося знайти інструмент "nope"; /);
  assertNoEnglish(noneUk.stderr, none.stderr, [/\bbasis-tools\b/g]);
});

Deno.test("findTool() throws an unknown_tool error whose English is its message and whose phrase words it", () => {
  const spec = { name: "echo" } as ToolSpec;
  const roster = { tools: new Map([["echo", spec]]), unavailable: new Map() } as unknown as Roster;
  assert.equal(findTool(roster, "echo"), spec);
  let thrown: unknown;
  try {
    findTool(roster, "ecoh");
  } catch (error) {
    thrown = error;
  }
  assert.ok(thrown instanceof BasisError && thrown.phrase !== undefined, String(thrown));
  assert.equal(thrown.code, "unknown_tool");
  assert.equal(thrown.message, 'Cannot find tool "ecoh"; did you mean "echo"?');
  assert.deepEqual(errorLines(thrown), [thrown.message]);
  const [uk] = errorLines(thrown, UK);
  assert.match(uk ?? "", CYRILLIC);
  assert.match(uk ?? "", /"ecoh".*"echo"/);
});
