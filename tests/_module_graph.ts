/**
 * The module graph Deno resolves for an entry point (`deno info --json`), and which modules load
 * without crossing a dynamic import: for tests that keep heavy dependencies out of a fast path.
 *
 * @module
 */

/** The repository's Deno config. */
const CONFIG = new URL("../deno.json", import.meta.url).pathname;

/** One module of the graph and what it imports. */
export interface GraphModule {
  specifier: string;
  dependencies?: { specifier: string; code?: { specifier: string }; isDynamic?: boolean }[];
}

/** What `deno info --json` says of an entry point. */
export interface ModuleGraph {
  /** The URLs of the entry points. */
  roots: string[];
  /** Every module reached, dynamic imports included. */
  modules: GraphModule[];
}

/**
 * The module graph of an entry point, resolved with the repository's config.
 *
 * @example Usage
 * ```ts ignore
 * const graph = await moduleGraph("src/main.ts");
 * const loaded = staticallyReachable(graph, graph.roots);
 * ```
 *
 * @param entry The entry point's path.
 * @returns The graph.
 * @throws {Error} When `deno info` fails, with what it said.
 */
export async function moduleGraph(entry: string): Promise<ModuleGraph> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--config", CONFIG, entry],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (output.code !== 0) {
    throw new Error(
      `Cannot read the module graph of "${entry}": ${new TextDecoder().decode(output.stderr)}`,
    );
  }
  return JSON.parse(new TextDecoder().decode(output.stdout)) as ModuleGraph;
}

/**
 * The modules loaded from `starts` without crossing a dynamic import.
 *
 * @param graph The module graph.
 * @param starts The URLs to start from.
 * @returns Their URLs, `starts` included.
 */
export function staticallyReachable(graph: ModuleGraph, starts: string[]): Set<string> {
  const byUrl = new Map(graph.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const queue = [...starts];
  while (queue.length > 0) {
    const next = queue.pop() as string;
    if (seen.has(next)) continue;
    seen.add(next);
    for (const dep of byUrl.get(next)?.dependencies ?? []) {
      if (!dep.isDynamic && dep.code?.specifier) queue.push(dep.code.specifier);
    }
  }
  return seen;
}
