/**
 * The OS sandbox in process: the user's policy (`sandbox.json`), planning one call under it
 * (refusals, what `required` does where nothing confines, the grants a preview shows), bubblewrap's
 * arguments and the macOS profile, rules matching the grants, the prompt's words for them, and the
 * answer "bwrap works here" kept between processes. Nothing here needs bwrap to work.
 *
 * @module
 */

import assert from "node:assert/strict";
import { ManifestError } from "../src/errors.ts";
import { english, phrase, type PhraseParams } from "../src/locale/messages.ts";
import type { MessageKey } from "../src/locale/en_us.ts";
import { makePalette } from "../src/approval/terminal/_render.ts";
import { renderRequest } from "../src/approval/terminal/_render.ts";
import { decideCall } from "../src/approval/rules/decide.ts";
import type { Rule, RuleQuery } from "../src/approval/rules/types.ts";
import type { ToolPreview } from "../src/approval/preview.ts";
import { bwrapArgs } from "../src/sandbox/_bwrap.ts";
import { callLayout } from "../src/sandbox/_layout.ts";
import { BWRAP_PATHS, forgetProbe, probe, PROBE_FILE, rootOnly } from "../src/sandbox/_probe.ts";
import { exists } from "../src/quietly.ts";
import { seatbeltProfile } from "../src/sandbox/_seatbelt.ts";
import { DEFAULT_POLICY, parseSandboxPolicy } from "../src/sandbox/policy.ts";
import {
  planSandbox,
  prepareSandbox,
  sandboxNeeds,
  spawnPreviewGrants,
} from "../src/sandbox/plan.ts";
import type { SandboxPlan, SandboxPolicy } from "../src/sandbox/types.ts";
import { tempDir } from "./_scratch.ts";
import { escape, say } from "./_wording.ts";

const FILE = "/c/sandbox.json";
const POLICY: SandboxPolicy = { ...DEFAULT_POLICY, file: FILE };
const NONE = { network: false, write: [], read: [] } as const;
const env = (vars: Record<string, string>) => (name: string) => vars[name];

/** A real workspace (it holds `.basis/tools.json`), at its canonical path. */
async function realWorkspace() {
  const dir = await tempDir({ prefix: "basis-plan-", realPath: true });
  await Deno.mkdir(`${dir.path}/.basis`);
  await Deno.writeTextFile(`${dir.path}/.basis/tools.json`, '{"schema": 1, "tools": {}}');
  return dir;
}

async function problems(text: string): Promise<string[]> {
  try {
    await parseSandboxPolicy(text, FILE);
  } catch (error) {
    assert.ok(error instanceof ManifestError, String(error));
    return error.problems.map((problem) =>
      `${problem.line}:${problem.column} ${problem.field ?? "-"}: ${english(problem.reason)}`
    );
  }
  throw new Error(`no problem found in ${text}`);
}

Deno.test("parseSandboxPolicy() gives every key its default: auto, no network, nothing more to write", async () => {
  const policy = await parseSandboxPolicy("{}", FILE);
  assert.equal(policy.mode, "auto");
  assert.equal(policy.network, false);
  assert.deepEqual(policy.write, []);
  assert.ok(policy.hidden.includes("~/.ssh"));
  assert.deepEqual(policy.grantable, {
    network: true,
    write: ["~", "/tmp", "/var/tmp"],
    read: ["/"],
  });
  assert.deepEqual(policy.spawn, { network: false, write: [], read: [], agent: false });
  const custom = await parseSandboxPolicy(
    '// comments are fine\n{"mode": "required", "write": ["~/out/../build"], "spawn": {"agent": true},}',
    FILE,
  );
  assert.equal(custom.mode, "required");
  assert.deepEqual(custom.write, ["~/build"]);
  assert.equal(custom.spawn.agent, true);
});

Deno.test("parseSandboxPolicy() names each problem at its line and column", async () => {
  const text = `{
  "mdoe": "auto",
  "mode": "sometimes",
  "grantable": {"write": ["relative/path", "~/../etc"], "netwrok": true},
  "spawn": 5,
  "network": "yes"
}`;
  assert.deepEqual(await problems(text), [
    `2:3 mdoe: ${say("manifest.unknown_key_near", { key: '"mode"' })}`,
    `3:11 mode: ${say("schema.enum", { values: '"off", "auto", "required"' })}`,
    `4:27 grantable.write[0]: ${say("config.grant_path")}`,
    `4:57 grantable.netwrok: ${say("manifest.unknown_key_near", { key: '"network"' })}`,
    `5:12 spawn: ${say("schema.type", { types: "object" })}`,
    `6:14 network: ${say("schema.type", { types: "boolean" })}`,
  ]);
  // Once the shape is right: a path that climbs out of the home directory.
  assert.deepEqual(await problems('{"hidden": ["~/a/../../etc"], "bwrap": "~/.."}'), [
    `1:13 hidden[0]: ${say("manifest.sandbox_escapes", { base: "~" })}`,
    `1:40 bwrap: ${say("manifest.sandbox_escapes", { base: "~" })}`,
  ]);
  assert.deepEqual(await problems('{"mode": "off", "mode": "auto"}'), [
    `1:17 mode: ${say("json.duplicate_key", { line: 1, column: 2 })}`,
  ]);
});

Deno.test("planSandbox() refuses a declared grant the policy does not allow, naming it, before anything runs", async () => {
  await using workspace = await realWorkspace();
  const root = workspace.path;
  const request = (
    grants: { network: boolean; write: readonly string[]; read: readonly string[] },
  ) => ({
    caller: { kind: "tool", grants } as const,
    root,
    cwd: root,
    program: "/usr/bin/true",
  });
  const strict: SandboxPolicy = {
    ...POLICY,
    grantable: { network: false, write: ["/var/tmp"], read: [] },
  };
  // No sandbox for this system: what is refused is refused before one is looked for.
  const options = { env: env({ HOME: "/home/me", PATH: "/nowhere" }), os: "freebsd" as const };
  const network = await planSandbox(request({ ...NONE, network: true }), {
    policy: strict,
    ...options,
  });
  assert.equal(network.kind, "refused");
  assert.equal(
    network.kind === "refused" && english(network.reason),
    say("sandbox.grant_refused", { grant: "network", file: '"/c/sandbox.json"' }),
  );
  const write = await planSandbox(request({ ...NONE, write: ["/etc"] }), {
    policy: strict,
    ...options,
  });
  assert.match(write.kind === "refused" ? english(write.reason) : "", /grant write "\/etc"/);
  const read = await planSandbox(request({ ...NONE, read: ["~/.ssh"] }), {
    policy: strict,
    ...options,
  });
  assert.match(
    read.kind === "refused" ? english(read.reason) : "",
    /grant read "\/home\/me\/.ssh"/,
  );
  // Inside the workspace and inside what the policy allows: no refusal.
  const fine = await planSandbox(request({ ...NONE, write: [`${root}/build`, "/var/tmp/x"] }), {
    policy: strict,
    ...options,
  });
  assert.equal(fine.kind, "unconfined");
  // A "~" path with no home to expand it against.
  const homeless = await planSandbox(request({ ...NONE, read: ["~/.aws"] }), {
    policy: POLICY,
    env: env({}),
  });
  assert.equal(homeless.kind === "refused" && homeless.reason.key, "sandbox.no_home");
});

Deno.test("planSandbox() under required refuses where nothing confines; auto says why; off says nothing", async () => {
  const request = {
    caller: { kind: "tool", grants: NONE } as const,
    root: "/w",
    cwd: "/w",
    program: "/usr/bin/true",
  };
  for (const os of ["windows", "freebsd"] as const) {
    const required = await planSandbox(request, {
      policy: { ...POLICY, mode: "required" },
      os,
    });
    assert.equal(required.kind, "unavailable");
    assert.equal(
      required.kind === "unavailable" && english(required.reason),
      say("sandbox.required", { file: FILE, reason: phrase("sandbox.unsupported", { os }) }),
    );
    const auto = await planSandbox(request, { policy: POLICY, os });
    assert.equal(auto.kind === "unconfined" && auto.note?.key, "sandbox.unsupported");
  }
  const missing = await planSandbox(request, {
    policy: { ...POLICY, mode: "required", bwrap: "/nowhere/bwrap" },
    os: "linux",
    env: env({ PATH: "/nowhere" }),
  });
  assert.equal(
    missing.kind === "unavailable" ? english(missing.reason) : "",
    say("sandbox.required", {
      file: FILE,
      reason: phrase("sandbox.bwrap_not_there", { path: '"/nowhere/bwrap"', file: `"${FILE}"` }),
    }),
  );
  const off = await planSandbox(request, {
    policy: { ...POLICY, mode: "off" },
    os: "linux",
  });
  assert.deepEqual(off, { kind: "unconfined", note: undefined });
  // A subagent is confined only when the policy says so.
  const agent = await planSandbox({ ...request, caller: { kind: "agent" } }, {
    policy: POLICY,
    os: "linux",
  });
  assert.deepEqual(agent, { kind: "unconfined", note: undefined });
});

Deno.test("spawnPreviewGrants() shows a spawn command's grants only when the policy gives more than the default", () => {
  const wrap = { kind: "bwrap", program: "/usr/bin/bwrap", args: [] } as const;
  const plan = (
    preview: { network: boolean; write: readonly string[]; read: readonly string[] },
  ) => ({ kind: "confined", preview, wrap, create: [], bound: [] }) as const;
  assert.equal(spawnPreviewGrants(plan({ ...NONE, write: [], read: [] })), undefined);
  assert.equal(spawnPreviewGrants({ kind: "unconfined", note: undefined }), undefined);
  assert.deepEqual(spawnPreviewGrants(plan({ network: true, write: [], read: [] })), {
    network: true,
    write: [],
    read: [],
  });
});

Deno.test("callLayout() and bwrapArgs() confine: own PID namespace that dies with the call, read-only root, an empty /run, grants bound parents first, basis-tools' own directories covered inside them", async () => {
  await using temp = await tempDir({ prefix: "basis-bwrap-", realPath: true });
  const dir = temp.path;
  for (const path of ["home/.ssh/keys", "home/work", "config"]) {
    await Deno.mkdir(`${dir}/${path}`, { recursive: true });
  }
  await Deno.writeTextFile(`${dir}/home/.netrc`, "machine x");
  const layout = callLayout({
    write: [`${dir}/home/work`, dir],
    read: [`${dir}/home/.ssh/keys`],
    hidden: [`${dir}/home/.ssh`, `${dir}/home/.netrc`, `${dir}/not-there`],
    sockets: [],
    trusted: [
      { path: `${dir}/config`, kind: "hidden" },
      { path: `${dir}/cache/basis`, kind: "directory" },
    ],
    program: "/usr/bin/true",
    cwd: `${dir}/home/work`,
    policyFile: FILE,
  });
  assert.ok("mounts" in layout);
  assert.deepEqual(layout.create, [`${dir}/cache/basis`]);
  const args = bwrapArgs(layout.mounts, false, `${dir}/home/work`);
  const line = args.join(" ");
  for (
    const flag of ["--die-with-parent", "--new-session", "--unshare-pid", "--unshare-net"]
  ) {
    assert.ok(args.includes(flag), `${flag} in ${line}`);
  }
  if (Deno.uid() === 0) assert.ok(line.includes("--cap-drop ALL"), line);
  assert.ok(line.includes("--ro-bind / / --dev /dev --proc /proc --tmpfs /tmp --tmpfs /run"), line);
  const at = (text: string) => {
    const index = line.indexOf(text);
    assert.ok(index >= 0, `${text} in ${line}`);
    return index;
  };
  // The workspace, then the hidden paths inside it, then a grant inside a hidden one.
  assert.ok(at(`--bind ${dir} ${dir}`) < at(`--tmpfs ${dir}/home/.ssh`));
  assert.ok(at(`--tmpfs ${dir}/home/.ssh`) < at(`--ro-bind ${dir}/home/.ssh/keys`));
  assert.ok(line.includes(`--ro-bind /dev/null ${dir}/home/.netrc`), line);
  assert.ok(!line.includes("not-there"), "a hidden path that is not there hides nothing");
  // Inside the writable directory: the config directory empty, the cache read-only, the
  // directory between them and it bound onto itself (so it cannot be moved away).
  assert.ok(at(`--bind ${dir} ${dir}`) < at(`--tmpfs ${dir}/config`));
  assert.ok(at(`--bind ${dir}/cache ${dir}/cache`) < at(`--ro-bind-try ${dir}/cache/basis`));
  assert.ok(line.endsWith(`--chdir ${dir}/home/work --`));
  assert.ok(!bwrapArgs([], true, "/").includes("--unshare-net"));
});

Deno.test("callLayout() makes and covers basis-tools' own directories that are not there yet, with no grant around them (a grant made a link to them after the plan finds them out of reach)", async () => {
  await using temp = await tempDir({
    prefix: "basis-own-absent-",
    dir: "/var/tmp",
    realPath: true,
  });
  const dir = temp.path;
  const layout = callLayout({
    write: [],
    read: [],
    hidden: [],
    sockets: [],
    trusted: [
      { path: `${dir}/config/basis`, kind: "hidden" },
      { path: `${dir}/cache/basis`, kind: "directory" },
    ],
    program: "/usr/bin/true",
    cwd: "/",
    policyFile: FILE,
  });
  assert.ok("mounts" in layout);
  assert.deepEqual(layout.create, [`${dir}/config/basis`, `${dir}/cache/basis`]);
  const line = bwrapArgs(layout.mounts, false, "/").join(" ");
  assert.ok(line.includes(`--tmpfs ${dir}/config/basis`), line);
  assert.ok(line.includes(`--ro-bind-try ${dir}/cache/basis`), line);
});

Deno.test("seatbeltProfile() denies writes but where granted, the network unless granted, and the hidden paths", () => {
  const profile = seatbeltProfile({
    network: false,
    write: ["/w"],
    read: ["/Users/me/.ssh/known"],
    hidden: ["/Users/me/.ssh"],
    protect: ['/Users/me/.config/ba"sis'],
  });
  assert.match(profile, /^\(version 1\)\n\(allow default\)\n\(deny file-write\*\)\n/);
  assert.match(profile, /\(allow file-write\* \(subpath "\/w"\)/);
  assert.match(profile, /\(deny file-write\* \(subpath "\/Users\/me\/\.config\/ba\\"sis"\)\)/);
  assert.match(profile, /\(deny network-outbound \(remote ip\) \(remote unix-socket\)\)/);
  assert.match(
    profile,
    /\(deny file-read\* \(subpath "\/Users\/me\/\.ssh"\)\)\n\(allow file-read\* \(subpath "\/Users\/me\/\.ssh\/known"\)\)/,
  );
  const online = seatbeltProfile({ network: true, write: [], read: [], hidden: [], protect: [] });
  assert.doesNotMatch(online, /network/);
});

Deno.test("rules match the grants: an allow rule without a sandbox condition holds only for a call with none; exact grants compare as sets; any matches all", async () => {
  const preview = (sandbox: ToolPreview["sandbox"]): ToolPreview => ({
    tool: "t",
    program: "/bin/t",
    command: ["t"],
    cwd: "/w",
    env: [],
    sandbox,
    input: {},
  });
  const query = (sandbox: ToolPreview["sandbox"]): RuleQuery => ({
    tool: "t",
    kind: "tool",
    preview: preview(sandbox),
    sideEffect: "process",
    root: "/w",
    source: "global",
  });
  const rule = (decision: "allow" | "deny", sandbox?: unknown): Rule =>
    ({
      id: `r-${decision}`,
      tool: "t",
      decision,
      scope: "global",
      when: { program: "/bin/t", ...(sandbox === undefined ? {} : { sandbox }) },
    }) as Rule;
  const grants = { network: true, write: ["/b", "/a"], read: [] };
  const decide = async (rules: Rule[], sandbox: ToolPreview["sandbox"]) =>
    (await decideCall(rules, query(sandbox))).match?.id;

  assert.equal(await decide([rule("allow")], NONE), "r-allow");
  assert.equal(await decide([rule("allow")], "unconfined"), "r-allow");
  assert.equal(await decide([rule("allow")], grants), undefined);
  assert.equal(await decide([rule("deny")], grants), "r-deny");
  assert.equal(await decide([rule("allow", "any")], grants), "r-allow");
  const pinned = rule("allow", { network: true, write: ["/a", "/b"], read: [] });
  assert.equal(await decide([pinned], grants), "r-allow");
  assert.equal(await decide([pinned], { ...grants, write: ["/a"] }), undefined);
  assert.equal(await decide([pinned], NONE), undefined);
  assert.equal(await decide([rule("allow", "unconfined")], NONE), undefined);
});

Deno.test("the prompt words the grants: confined with nothing more, what more it may do, or unconfined", () => {
  const shown = (sandbox: ToolPreview["sandbox"]) =>
    renderRequest(
      {
        tool: "t",
        sideEffect: "process",
        kind: "tool",
        preview: {
          tool: "t",
          program: "/bin/t",
          command: ["t"],
          cwd: "/w",
          env: [],
          sandbox,
          input: {},
        },
      },
      makePalette(false),
      [],
    );
  const line = (key: MessageKey, params?: PhraseParams) =>
    new RegExp(`${escape(say("prompt.sandbox"))} +${escape(say(key, params))}\n`);
  assert.match(shown(NONE), line("prompt.sandbox_default"));
  assert.match(
    shown({ network: true, write: ["/w/build", "/var/tmp"], read: ["/home/me/.ssh"] }),
    line("prompt.sandbox_grants", {
      grants: [
        say("prompt.sandbox_network"),
        say("prompt.sandbox_write", { paths: "/w/build, /var/tmp" }),
        say("prompt.sandbox_read", { paths: "/home/me/.ssh" }),
      ].join("; "),
    }),
  );
  assert.match(shown("unconfined"), line("prompt.sandbox_unconfined"));
});

Deno.test("sandboxNeeds() asks Deno for bwrap, the hidden and granted paths and /run; nothing when off", () => {
  const needs = sandboxNeeds(POLICY, [{ write: ["~/out"], read: ["~/.aws"] }], {
    env: env({ HOME: "/home/me", PATH: "/nowhere" }),
    os: "linux",
  });
  // bwrap where the system keeps it, whatever PATH says.
  const system = BWRAP_PATHS.find((path) => exists(path));
  assert.equal(needs.program, system === undefined ? "bwrap" : Deno.realPathSync(system));
  assert.equal(needs.sandboxed, system !== undefined);
  assert.ok(needs.write.includes("/home/me/out"));
  assert.ok(needs.read.includes("/home/me/.aws") && needs.read.includes("/home/me/.ssh"));
  assert.ok(needs.read.includes("/run"));
  assert.deepEqual(sandboxNeeds({ ...POLICY, mode: "off" }, [], { os: "linux" }), {
    sandboxed: false,
    program: undefined,
    read: [],
    write: [],
  });
});

Deno.test({
  name: "probe() keeps a yes in the cache directory, and forgetProbe() drops it",
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using cache = await tempDir({ prefix: "basis-probe-" });
  await using bin = await tempDir({ prefix: "basis-probe-bin-" });
  // A stand-in for bwrap that works and counts how often it was asked.
  const fake = `${bin.path}/bwrap`;
  await Deno.writeTextFile(fake, `#!/bin/sh\necho asked >> ${bin.path}/count\nexit 0\n`);
  await Deno.chmod(fake, 0o755);
  const asked = async () =>
    (await Deno.readTextFile(`${bin.path}/count`)).trim().split("\n").length;
  assert.equal(await probe(fake, cache.path), undefined);
  assert.equal(await asked(), 1);
  assert.match(await Deno.readTextFile(`${cache.path}/${PROBE_FILE}`), /"works"/);
  forgetProbe(fake, undefined);
  // Another process (the in-process answer forgotten) reads the kept one.
  assert.equal(await probe(fake, cache.path), undefined);
  assert.equal(await asked(), 1);
  forgetProbe(fake, cache.path);
  assert.equal(await probe(fake, cache.path), undefined);
  assert.equal(await asked(), 2);
  // A "no" is never kept.
  await Deno.writeTextFile(fake, "#!/bin/sh\necho 'bwrap: No permissions' >&2\nexit 1\n");
  forgetProbe(fake, cache.path);
  const no = await probe(fake, cache.path);
  assert.equal(
    no === undefined ? undefined : english(no),
    say("sandbox.bwrap_broken", { detail: "No permissions" }),
  );
  assert.equal(await Deno.stat(`${cache.path}/${PROBE_FILE}`).then(() => true, () => false), false);
});

/** A plan's refusal in English, or its kind when it is not refused. */
function refusal(plan: SandboxPlan): string {
  return plan.kind === "refused" ? english(plan.reason) : plan.kind;
}

/** What planSandbox() is asked for a declared tool. */
function toolCall(
  root: string,
  grants: { network?: boolean; write?: string[]; read?: string[] } = {},
  cwd = root,
) {
  return {
    caller: {
      kind: "tool",
      grants: { network: false, write: [], read: [], ...grants },
    } as const,
    root,
    cwd,
    program: "/usr/bin/true",
  };
}

Deno.test("planSandbox() writes the workspace root only when it is a real one, and never / or the home directory", async () => {
  await using real = await realWorkspace();
  await using bare = await tempDir({ prefix: "basis-plan-", realPath: true });
  // What the workspace holds needs no grant, when it is one; nothing else is grantable here.
  const strict: SandboxPolicy = {
    ...POLICY,
    grantable: { network: false, write: [], read: ["/"] },
  };
  const plan = (root: string, home: string, write: string) =>
    planSandbox(toolCall(root, { write: [write] }, "/"), {
      policy: strict,
      env: env({ HOME: home }),
      os: "freebsd",
    });
  assert.equal((await plan(real.path, "/home/me", `${real.path}/build`)).kind, "unconfined");
  for (
    const [root, home] of [
      [bare.path, "/home/me"],
      [real.path, real.path],
      [real.path, `${real.path}/me`],
      ["/", "/home/me"],
    ] as const
  ) {
    assert.equal(
      refusal(await plan(root, home, `${root === "/" ? "" : root}/build`)),
      say("sandbox.grant_refused", {
        grant: `write "${root === "/" ? "" : root}/build"`,
        file: `"${FILE}"`,
      }),
      `root ${root}, home ${home}`,
    );
  }
});

Deno.test("planSandbox() refuses a working directory the sandbox covers, unless a grant shows it", async () => {
  await using home = await tempDir({ prefix: "basis-plan-home-", dir: "/var/tmp", realPath: true });
  await Deno.mkdir(`${home.path}/.ssh/keys`, { recursive: true });
  await using bare = await tempDir({ prefix: "basis-plan-", realPath: true });
  const options = { env: env({ HOME: home.path }), os: "freebsd" as const };
  const covered = (cwd: string, place: string) =>
    say("sandbox.cwd_covered", {
      cwd: JSON.stringify(cwd),
      place: JSON.stringify(place),
      file: `"${FILE}"`,
    });
  const plan = (cwd: string, read: string[] = []) =>
    planSandbox(toolCall("/", { read }, cwd), { policy: POLICY, ...options });
  const ssh = `${home.path}/.ssh/keys`;
  assert.equal(refusal(await plan(ssh)), covered(ssh, `${home.path}/.ssh`));
  // The host's /tmp (outside a workspace there), and /run wherever in it.
  assert.equal(refusal(await plan(bare.path)), covered(bare.path, "/tmp"));
  assert.equal(refusal(await plan("/run")), covered("/run", "/run"));
  // A read grant shows what it names, and what it names is then the cwd's.
  assert.equal((await plan(ssh, ["~/.ssh"])).kind, "unconfined");
  assert.equal((await plan(home.path)).kind, "unconfined");
});

Deno.test("planSandbox() refuses a grant inside basis-tools' own directories, or one holding a link on their way", async () => {
  await using temp = await tempDir({ prefix: "basis-plan-own-", dir: "/var/tmp", realPath: true });
  const home = temp.path;
  await Deno.mkdir(`${home}/dotfiles/basis`, { recursive: true });
  await Deno.mkdir(`${home}/.config`);
  await Deno.symlink(`${home}/dotfiles/basis`, `${home}/.config/basis`);
  await Deno.symlink(`${home}/.config/basis`, `${home}/cfg`);
  const policy: SandboxPolicy = { ...POLICY, file: `${home}/.config/basis/sandbox.json` };
  const options = {
    env: env({ HOME: home }),
    os: "freebsd" as const,
    cacheDir: `${home}/.cache/basis`,
    stateDir: `${home}/.local/state/basis`,
  };
  const plan = (grants: { write?: string[]; read?: string[] }) =>
    planSandbox(toolCall("/", grants, "/"), { policy, ...options });
  const config = JSON.stringify(`${home}/dotfiles/basis`);
  // The config directory through a link to it, and a path in it that does not exist yet.
  for (const write of ["~/cfg", "~/cfg/new/dir"]) {
    const resolved = write === "~/cfg"
      ? `${home}/dotfiles/basis`
      : `${home}/dotfiles/basis/new/dir`;
    assert.equal(
      refusal(await plan({ write: [write] })),
      say("sandbox.trusted_write", { path: JSON.stringify(resolved), dir: config }),
    );
  }
  assert.equal(
    refusal(await plan({ read: ["~/dotfiles"] })),
    "unconfined",
    "around the config directory: readable, and it is hidden inside",
  );
  assert.equal(
    refusal(await plan({ read: ["~/cfg"] })),
    say("sandbox.trusted_read", { path: config, dir: config }),
  );
  // The cache directory, which does not exist yet.
  assert.equal(
    refusal(await plan({ write: ["~/.cache/basis/x"] })),
    say("sandbox.trusted_write", {
      path: JSON.stringify(`${home}/.cache/basis/x`),
      dir: JSON.stringify(`${home}/.cache/basis`),
    }),
  );
  // The directory holding the link that is the config directory: the call could repoint it.
  assert.equal(
    refusal(await plan({ write: ["~/.config"] })),
    say("sandbox.trusted_link", {
      path: JSON.stringify(`${home}/.config`),
      link: JSON.stringify(`${home}/.config/basis`),
      dir: config,
    }),
  );
  assert.equal(refusal(await plan({ write: ["~/.cache", "~/dotfiles"] })), "unconfined");
});

Deno.test("prepareSandbox() makes what a plan may write, mode 0700, and never through a link put there since", async () => {
  await using temp = await tempDir({ prefix: "basis-plan-make-", realPath: true });
  const wrap = { kind: "bwrap", program: "/usr/bin/bwrap", args: [] } as const;
  const plan = (create: string[], bound: string[] = []) =>
    ({ kind: "confined", preview: NONE, wrap, create, bound }) as const;
  assert.equal(await prepareSandbox(plan([`${temp.path}/a/b`])), undefined);
  assert.equal((await Deno.stat(`${temp.path}/a/b`)).mode! & 0o777, 0o700);
  await Deno.mkdir(`${temp.path}/elsewhere`);
  await Deno.symlink(`${temp.path}/elsewhere`, `${temp.path}/c`);
  assert.match(english((await prepareSandbox(plan([`${temp.path}/c/d`])))!), /symbolic link/);
  // A bound grant another call turned into a link since the preview: the call does not start.
  await Deno.mkdir(`${temp.path}/grant`);
  assert.equal(await prepareSandbox(plan([], [`${temp.path}/grant`])), undefined);
  await Deno.remove(`${temp.path}/grant`);
  await Deno.symlink(`${temp.path}/elsewhere`, `${temp.path}/grant`);
  assert.match(english((await prepareSandbox(plan([], [`${temp.path}/grant`])))!), /symbolic link/);
  assert.match(
    english((await prepareSandbox(plan([], [`${temp.path}/grant/x`])))!),
    /symbolic link/,
  );
});

Deno.test({
  name: "rootOnly() trusts a program only root can have changed",
  ignore: Deno.build.os !== "linux" || Deno.uid() !== 0,
}, async () => {
  await using temp = await tempDir({
    prefix: "basis-plan-bwrap-",
    dir: "/var/tmp",
    realPath: true,
  });
  const program = `${temp.path}/bwrap`;
  await Deno.writeTextFile(program, "#!/bin/sh\n", { mode: 0o755 });
  await Deno.chmod(temp.path, 0o755);
  // /var/tmp is world-writable but sticky: others cannot replace what root put there.
  assert.deepEqual(rootOnly(program, false), { path: program });
  await Deno.chown(program, 65534, 65534);
  assert.deepEqual(rootOnly(program, false), { untrusted: program });
  await Deno.chown(program, 0, 0);
  await Deno.chmod(temp.path, 0o777);
  assert.deepEqual(rootOnly(program, false), { untrusted: program });
});

Deno.test("docs/sandbox.md lists the hidden paths the sandbox ships with", async () => {
  const readme = await Deno.readTextFile(new URL("../docs/sandbox.md", import.meta.url));
  const bullet = /^- \*\*hidden paths\*\*[^]*?(?=^\S)/m.exec(readme)?.[0] ?? "";
  const listed = [...bullet.matchAll(/`(~[^`]*)`/g)].map((found) => found[1]);
  assert.deepEqual(listed, [...DEFAULT_POLICY.hidden]);
});
