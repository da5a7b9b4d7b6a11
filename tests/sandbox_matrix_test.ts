/**
 * The sandbox's invariants, attacked as a matrix through the real CLI: every workspace location
 * (a normal one, `$HOME`, `/`, a root reached through a link) × every shape of the config directory
 * (a directory, a link to one) × every grant that touches basis-tools' own directories (none, the
 * config directory, its parent, a link to it, the cache's parent, the state directory's parent, a
 * path through a link that does not exist yet, the home directory) × every working directory that
 * would show what the sandbox covers (the workspace, a hidden path, the host's /tmp, a socket
 * directory in /run/user). In every case the tool (`fixtures/sandbox/attack.sh`) tries everything
 * at once; afterwards the test checks that the config, cache and state directories changed only by
 * basis-tools' own hand, that nothing was written outside the write set the preview shows, that no
 * host tmux server ran a command for it, that no planted validator ran, and that no hidden file
 * was printed. HOME and the user directories are scratch ones: nothing of the machine's is used.
 *
 * @module
 */

import assert from "node:assert/strict";
import { cli, ROOT, type Scratch } from "./_cli.ts";
import { hasTmux } from "./_tmux.ts";
import { removeAll } from "./_scratch.ts";
import { CACHE_FORMAT } from "../src/schema/_validator.ts";

const ATTACK = `${ROOT}tests/fixtures/sandbox/attack.sh`;
const SECRETS = ["SECRET-SSH", "SECRET-NPM", "SECRET-GH", "SECRET-CONFIG"];
/** Deno's own cache, which a scratch HOME would otherwise move (and fill). */
const DENO_DIR = Deno.env.get("DENO_DIR") ??
  `${Deno.env.get("XDG_CACHE_HOME") ?? `${Deno.env.get("HOME")}/.cache`}/deno`;

/** Why the matrix cannot run here (it needs bwrap to make namespaces, tmux, and /run/user). */
function whyNot(): string | undefined {
  if (Deno.build.os !== "linux") return `it needs Linux (this is ${Deno.build.os})`;
  if (!hasTmux()) return "tmux is not installed";
  try {
    const probe = new Deno.Command("bwrap", {
      args: ["--unshare-pid", "--ro-bind", "/", "/", "--proc", "/proc", "--", "/bin/true"],
      stdout: "null",
      stderr: "null",
    }).outputSync();
    if (!probe.success) return "bwrap cannot create namespaces here";
  } catch {
    return "bwrap is not installed";
  }
  try {
    Deno.mkdirSync("/run/user", { recursive: true });
    const probe = Deno.makeTempDirSync({ dir: "/run/user", prefix: "basis-probe-" });
    Deno.removeSync(probe);
  } catch {
    return "this user may not make a directory in /run/user";
  }
  return undefined;
}

const SKIP = whyNot();
if (SKIP !== undefined) console.error(`tests/sandbox_matrix_test.ts: skipped: ${SKIP}`);

type Workspace = "normal" | "home" | "slash" | "linked-root";
type Shape = "plain" | "linked";
type Grant =
  | "none"
  | "config"
  | "config-parent"
  | "config-link"
  | "cache-parent"
  | "state-parent"
  | "through-link"
  | "home";
type Cwd = "workspace" | "hidden" | "host-tmp" | "socket-dir";

const WORKSPACES: Workspace[] = ["normal", "home", "slash", "linked-root"];
const SHAPES: Shape[] = ["plain", "linked"];
const GRANTS: Grant[] = [
  "none",
  "config",
  "config-parent",
  "config-link",
  "cache-parent",
  "state-parent",
  "through-link",
  "home",
];
const CWDS: Cwd[] = ["workspace", "hidden", "host-tmp", "socket-dir"];

/** What the manifest asks for, as written (`~` paths). */
const DECLARED: Record<Grant, string[]> = {
  none: [],
  config: ["~/.config/basis"],
  "config-parent": ["~/.config"],
  "config-link": ["~/cfg-link"],
  "cache-parent": ["~/.cache"],
  "state-parent": ["~/.local/state"],
  "through-link": ["~/cfg-link/new/dir"],
  home: ["~"],
};

/** Shared by every case: the host sockets (tmux servers) and where a break-out leaves its mark. */
interface World {
  base: string;
  markers: string;
  outside: string;
  hostTmp: string;
  runUser: string;
  run: string;
  sockets: string[];
  agent: string;
}

/** One group of cases: a home, its user directories, a workspace. */
interface Group {
  workspace: Workspace;
  shape: Shape;
  dir: string;
  home: string;
  config: string;
  configReal: string;
  cache: string;
  state: string;
  evil: string;
  root: string;
  cliCwd: string;
  manifest: string;
  /** Whether the root is writable (a real workspace that is neither / nor $HOME). */
  rootWritable: boolean;
}

async function tmuxServer(socket: string): Promise<void> {
  await Deno.mkdir(socket.slice(0, socket.lastIndexOf("/")), { recursive: true });
  const started = await new Deno.Command("tmux", {
    args: ["-S", socket, "-f", "/dev/null", "new-session", "-d", "sleep 600"],
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.ok(started.success, new TextDecoder().decode(started.stderr));
}

async function killTmux(socket: string): Promise<void> {
  await new Deno.Command("tmux", { args: ["-S", socket, "kill-server"], stderr: "null" }).output();
}

async function makeWorld(): Promise<World> {
  // Under /var/tmp, which a call sees as the host has it (read-only): a home under /tmp would be
  // covered by the call's own /tmp.
  const base = await Deno.makeTempDir({ dir: "/var/tmp", prefix: "basis-matrix-" });
  const id = base.slice(base.lastIndexOf("-") + 1);
  const world: World = {
    base,
    markers: `${base}/markers`,
    outside: `${base}/outside`,
    hostTmp: await Deno.makeTempDir({ prefix: "basis-matrix-sockets-" }),
    runUser: `/run/user/basis-matrix-${id}`,
    run: `/run/basis-matrix-${id}`,
    sockets: [],
    agent: `${base}/agent/tmux`,
  };
  await Deno.mkdir(world.markers);
  await Deno.mkdir(world.outside);
  world.sockets = [
    `${world.hostTmp}/tmux`,
    `${world.runUser}/tmux`,
    `${world.run}/tmux`,
    world.agent,
  ];
  for (const socket of world.sockets) await tmuxServer(socket);
  return world;
}

async function dropWorld(world: World): Promise<void> {
  for (const socket of world.sockets) await killTmux(socket);
  for (const dir of [world.base, world.hostTmp, world.runUser, world.run]) await removeAll(dir);
}

async function makeGroup(world: World, workspace: Workspace, shape: Shape): Promise<Group> {
  const dir = `${world.base}/${workspace}-${shape}`;
  const home = `${dir}/home`;
  await Deno.mkdir(`${home}/.ssh`, { recursive: true });
  await Deno.writeTextFile(`${home}/.ssh/id_ed25519`, "SECRET-SSH\n");
  await Deno.writeTextFile(`${home}/.npmrc`, "//registry.npmjs.org/:_authToken=SECRET-NPM\n");
  await Deno.mkdir(`${home}/.config/gh`, { recursive: true });
  await Deno.writeTextFile(`${home}/.config/gh/hosts.yml`, "oauth_token: SECRET-GH\n");
  const config = `${home}/.config/basis`;
  const configReal = shape === "plain" ? config : `${home}/dotfiles/basis`;
  await Deno.mkdir(configReal, { recursive: true });
  if (shape === "linked") await Deno.symlink("../dotfiles/basis", config);
  await Deno.writeTextFile(`${configReal}/sandbox.json`, "// SECRET-CONFIG\n{}\n");
  await Deno.symlink(config, `${home}/cfg-link`);
  const evil = `${dir}/evil`;
  await Deno.mkdir(evil);
  await Deno.writeTextFile(`${evil}/sandbox.json`, '{"mode": "off"}\n');
  let root: string;
  let cliCwd: string;
  let manifest: string;
  switch (workspace) {
    case "normal":
      root = cliCwd = `${dir}/work`;
      manifest = `${root}/.basis/tools.json`;
      break;
    case "home":
      root = cliCwd = home;
      manifest = `${home}/.basis/tools.json`;
      break;
    case "slash":
      root = cliCwd = "/";
      manifest = `${configReal}/tools.json`;
      break;
    case "linked-root":
      root = `${dir}/real`;
      cliCwd = `${dir}/link`;
      manifest = `${root}/.basis/tools.json`;
      break;
  }
  await Deno.mkdir(manifest.slice(0, manifest.lastIndexOf("/")), { recursive: true });
  if (workspace === "linked-root") await Deno.symlink(root, cliCwd);
  return {
    workspace,
    shape,
    dir,
    home,
    config,
    configReal,
    cache: `${home}/.cache/basis`,
    state: `${home}/.local/state/basis`,
    evil,
    root,
    cliCwd,
    manifest,
    rootWritable: workspace === "normal" || workspace === "linked-root",
  };
}

/** Whether the call may run at all, and what it may write when it does. */
function expected(group: Group, grant: Grant, cwd: Cwd): { runs: boolean; write: string[] } {
  const { home } = group;
  // A grant that reaches into the config directory, or that could replace the link on its way.
  const reaches = grant === "config" || grant === "config-link" || grant === "through-link" ||
    (group.shape === "linked" && (grant === "config-parent" || grant === "home"));
  const runs = cwd === "workspace" && !reaches;
  const granted: Record<Grant, string[]> = {
    none: [],
    config: [],
    "config-parent": [`${home}/.config`],
    "config-link": [],
    "cache-parent": [`${home}/.cache`],
    "state-parent": [`${home}/.local/state`],
    "through-link": [],
    home: [home],
  };
  const write = runs ? [...(group.rootWritable ? [group.root] : []), ...granted[grant]] : [];
  return { runs, write };
}

async function writeManifest(group: Group, grant: Grant, cwd: Cwd, world: World): Promise<void> {
  const cwds: Record<Cwd, string | undefined> = {
    workspace: undefined,
    hidden: "${HOME}/.ssh",
    "host-tmp": world.hostTmp,
    "socket-dir": world.runUser,
  };
  const tool: Record<string, unknown> = {
    description: "Tries to get out",
    input_schema: { type: "object", properties: {} },
    command: [ATTACK],
    timeout_ms: 30_000,
  };
  if (cwds[cwd] !== undefined) tool.cwd = cwds[cwd];
  if (grant !== "none") tool.sandbox = { write: DECLARED[grant] };
  await Deno.writeTextFile(group.manifest, JSON.stringify({ schema: 1, tools: { attack: tool } }));
}

type Entry = { kind: "dir" } | { kind: "link"; target: string } | { kind: "file"; text: string };

/** Every path under a directory, links not followed, with what is there. */
function snapshot(dir: string): Map<string, Entry> {
  const out = new Map<string, Entry>();
  const walk = (path: string) => {
    let info: Deno.FileInfo;
    try {
      info = Deno.lstatSync(path);
    } catch {
      return;
    }
    if (info.isSymlink) out.set(path, { kind: "link", target: Deno.readLinkSync(path) });
    else if (info.isFile) out.set(path, { kind: "file", text: Deno.readTextFileSync(path) });
    else if (info.isDirectory) {
      out.set(path, { kind: "dir" });
      for (const entry of Deno.readDirSync(path)) walk(`${path}/${entry.name}`);
    }
  };
  walk(dir);
  return out;
}

function inside(path: string, base: string): boolean {
  return path === base || path.startsWith(`${base}/`);
}

/**
 * What changed under the group's directory that neither basis-tools (the audit trail appended to,
 * validators and its notes added to the cache and state directories) nor the write set explains.
 */
function unexplained(
  group: Group,
  before: Map<string, Entry>,
  after: Map<string, Entry>,
  write: readonly string[],
): string[] {
  const own = [group.cache, group.state];
  const trusted = [group.config, group.configReal, ...own];
  const wrong: string[] = [];
  for (const path of new Set([...before.keys(), ...after.keys()])) {
    const was = before.get(path);
    const now = after.get(path);
    if (JSON.stringify(was) === JSON.stringify(now)) continue;
    const planted = now?.kind === "file" && now.text.includes("PLANTED");
    if (own.some((dir) => inside(path, dir)) && !planted) {
      // basis-tools' own: made (the probe's answer, validators, the note), or appended to.
      if (was === undefined) continue;
      if (was.kind === "file" && now?.kind === "file" && path.endsWith("/audit.jsonl")) {
        if (now.text.startsWith(was.text)) continue;
      }
      if (path.endsWith("/sandbox-note") || path.endsWith("/sandbox-probe.json")) continue;
    }
    // The directories basis-tools makes on the way to its own.
    if (was === undefined && now?.kind === "dir" && own.some((dir) => inside(dir, path))) continue;
    const onTheWay = trusted.some((dir) => inside(dir, path) || inside(path, dir));
    if (!onTheWay && !planted && write.some((dir) => inside(path, dir))) continue;
    wrong.push(
      `${path}: ${JSON.stringify(was)?.slice(0, 80)} → ${JSON.stringify(now)?.slice(0, 80)}`,
    );
  }
  return wrong;
}

async function runCase(world: World, group: Group, grant: Grant, cwd: Cwd): Promise<string[]> {
  const name = `${group.workspace}/${group.shape}/${grant}/${cwd}`;
  const id = `${group.workspace}-${group.shape}-${grant}-${cwd}`;
  await writeManifest(group, grant, cwd, world);
  const before = snapshot(group.dir);
  const dirs: Scratch = {
    root: group.cliCwd,
    configDir: group.config,
    cacheDir: group.cache,
    stateDir: group.state,
    [Symbol.asyncDispose]: () => Promise.resolve(),
  };
  const result = await cli(dirs, ["call", "attack", "{}", "--approve", "always"], {
    cwd: group.cliCwd,
    env: {
      HOME: group.home,
      DENO_DIR,
      SSH_AUTH_SOCK: world.agent,
      ATTACK_CASE: id,
      ATTACK_CACHE_FORMAT: String(CACHE_FORMAT),
      ATTACK_CONFIG: [...new Set([group.config, group.configReal])].join(" "),
      ATTACK_CACHE: group.cache,
      ATTACK_STATE: group.state,
      ATTACK_LINKS: group.shape === "linked" ? group.config : "",
      ATTACK_EVIL: group.evil,
      ATTACK_STOP: group.home,
      ATTACK_OUTSIDE: [group.home, group.dir, world.base, world.outside].join(" "),
      ATTACK_SOCKETS: world.sockets.join(" "),
      ATTACK_MARKERS: world.markers,
      ATTACK_READ: [
        `${group.home}/.ssh/id_ed25519`,
        `${group.home}/.npmrc`,
        `${group.home}/.config/gh/hosts.yml`,
        `${group.configReal}/sandbox.json`,
      ].join(" "),
    },
  });
  const problems: string[] = [];
  const { runs, write } = expected(group, grant, cwd);
  if (result.code !== (runs ? 0 : 5)) {
    problems.push(`exit ${result.code}, expected ${runs ? 0 : 5}: ${result.stderr.trim()}`);
  }
  for (const secret of SECRETS) {
    if (`${result.stdout}${result.stderr}`.includes(secret)) problems.push(`printed ${secret}`);
  }
  for (const marker of Deno.readDirSync(world.markers)) {
    if (marker.name.endsWith(id) || marker.name.startsWith("executed-")) {
      problems.push(`left ${marker.name} (a host tmux server ran it, or a planted validator)`);
    }
  }
  for (const dir of [world.base, world.outside]) {
    try {
      Deno.lstatSync(`${dir}/written-${id}`);
      problems.push(`wrote ${dir}/written-${id}`);
    } catch {
      // Not written: as it should be.
    }
  }
  problems.push(...unexplained(group, before, snapshot(group.dir), write));
  return problems.map((problem) => `${name}: ${problem}`);
}

async function pool<T>(items: T[], size: number, fn: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: size }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await fn(item);
    }),
  );
}

Deno.test({
  name: "sandbox: no workspace, grant or working directory opens basis-tools' own directories, " +
    "a host socket, a hidden file or a write outside the preview's write set",
  ignore: SKIP !== undefined,
  fn: async () => {
    for (const found of ["/.basis/tools.json"]) {
      assert.throws(() => Deno.lstatSync(found), `${found} would make / a real workspace`);
    }
    const world = await makeWorld();
    try {
      const groups: Group[] = [];
      for (const workspace of WORKSPACES) {
        for (const shape of SHAPES) groups.push(await makeGroup(world, workspace, shape));
      }
      const problems: string[] = [];
      await pool(groups, 3, async (group) => {
        for (const grant of GRANTS) {
          for (const cwd of CWDS) problems.push(...await runCase(world, group, grant, cwd));
        }
      });
      assert.deepEqual(problems, []);
    } finally {
      await dropWorld(world);
    }
  },
});
