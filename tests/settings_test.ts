import assert from "node:assert/strict";
import { parseArgs } from "../src/cli/args.ts";
import { COMMAND_OPTIONS, GLOBAL_OPTIONS, resolveSettings } from "../src/cli/settings.ts";
import { BasisError } from "../src/errors.ts";
import { cli, scratch } from "./_cli.ts";
import { errorLine, wording } from "./_wording.ts";

function noShell(value: string | undefined, argv: string[] = ["list"]): boolean {
  const env = (name: string) =>
    name === "BASIS_NO_SHELL" ? value : name === "HOME" ? "/home/test" : undefined;
  return resolveSettings(parseArgs(argv, GLOBAL_OPTIONS, COMMAND_OPTIONS), env).noShell;
}

Deno.test("BASIS_NO_SHELL takes the common spellings of yes and no, in any case", () => {
  for (const yes of ["1", "true", "yes", "on", "TRUE", "Yes", "ON", " on "]) {
    assert.equal(noShell(yes), true, yes);
  }
  for (const no of [undefined, "", "0", "false", "no", "off", "FALSE", "No", "Off"]) {
    assert.equal(noShell(no), false, String(no));
  }
  // --no-shell wins over a no.
  assert.equal(noShell("false", ["--no-shell", "list"]), true);
});

Deno.test("BASIS_NO_SHELL refuses anything else with a usage error naming what it may be", () => {
  for (const value of ["maybe", "2", "y", "enabled", "truee"]) {
    const error = (() => {
      try {
        noShell(value);
      } catch (error) {
        return error;
      }
    })();
    assert.ok(error instanceof BasisError, value);
    assert.equal(error.code, "usage");
    assert.equal(
      error.message,
      `Cannot use BASIS_NO_SHELL=${
        JSON.stringify(value)
      }: expected 1, true, yes, on (yes) or 0, false, no, off (no), in any case`,
    );
  }
});

Deno.test("BASIS_NO_SHELL=true turns spawn's commands off (exit 5); a spelling it does not know is exit 2", async () => {
  await using dirs = await scratch({ schema: 1, tools: {} });
  const marker = `${dirs.root}/marker`;
  for (const value of ["true", "yes", "on"]) {
    const refused = await cli(dirs, ["spawn", `!touch ${marker}`, "--approve", "always"], {
      env: { BASIS_NO_SHELL: value },
    });
    assert.equal(refused.code, 5, `${value}: ${refused.stderr}`);
    assert.match(refused.stderr, wording("spawn.guard.no_shell"));
  }
  const unknown = await cli(dirs, ["spawn", `!touch ${marker}`, "--approve", "always"], {
    env: { BASIS_NO_SHELL: "sure" },
  });
  assert.equal(unknown.code, 2);
  assert.match(
    unknown.stderr,
    errorLine("cli.bad_switch", {
      name: "BASIS_NO_SHELL",
      value: '"sure"',
      on: "1, true, yes, on",
      off: "0, false, no, off",
    }),
  );
  await assert.rejects(Deno.stat(marker));
  const allowed = await cli(dirs, ["spawn", `!touch ${marker}`, "--approve", "always"], {
    env: { BASIS_NO_SHELL: "off" },
  });
  assert.equal(allowed.code, 0, allowed.stderr);
  await Deno.stat(marker);
});
