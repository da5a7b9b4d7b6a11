/**
 * The MCP server: the roster (declared tools and spawn) served over stdio with the official
 * `@modelcontextprotocol/sdk`, every call going through the tool contract — schema gate, preview,
 * remembered rules, approver, run — exactly as on the command line.
 *
 * @module
 */

import process from "node:process";
import type { Readable, Writable } from "node:stream";
// The SDK's "./*" export names no types for "….js" paths: point at them.
// @ts-types="@modelcontextprotocol/sdk/types"
import type { ListToolsResult } from "@modelcontextprotocol/sdk/types.js";
import type { ApprovalPolicy } from "../approval/policy.ts";
import { withoutGeminiWait } from "../contract/gemini_wait.ts";
import { ToolError } from "../contract/tool_error.ts";
import type { Approver, OutputChunk, Tool } from "../contract/types.ts";
import { BasisError, errorLines, formatProblem, type ManifestProblem } from "../errors.ts";
import type { Locale } from "../locale/locale.ts";
import { listOf, loadLocale, type Messages, messages, phrase, plural } from "../locale/messages.ts";
import { tieToWatchdog } from "../run/mod.ts";
import { floatMultipleOf } from "../schema/gate.ts";
import { nearWords } from "../suggest.ts";
import { mcpApprover } from "./_approver.ts";
import {
  asking,
  type CallHow,
  InputRequired,
  type LogLevel,
  ProtocolError,
  requestLog,
  type Served,
} from "./_served.ts";
import { type HttpOptions, serveHttp } from "./_http.ts";
import { legacyServer } from "./_legacy.ts";
import { type Channel, type ModernRequest, modernRequest } from "./_modern.ts";
import { INVALID_PARAMS, LineTransport } from "./_transport.ts";
import { watchFiles } from "./_watch.ts";

/** How long, after the client went away, running calls get to stop before the server returns. */
const DRAIN_MS = 5_000;

/** A tool left out of `tools/list`, and why. */
export interface UnavailableEntry {
  /** The tool's name. */
  readonly name: string;
  /** Why it cannot be used (never empty). */
  readonly problems: readonly ManifestProblem[];
  /**
   * Whether it may become usable with no watched file changing (a program installed later): the
   * server then loads the roster again from time to time.
   */
  readonly recheck?: boolean;
}

/** What {@linkcode ServeMcpOptions.load} builds: the usable tools, and those left out. */
export interface LoadedRoster {
  /** The tools served. */
  readonly tools: readonly Tool[];
  /** The tools that cannot be used, each logged once and left out of `tools/list`. */
  readonly unavailable?: readonly UnavailableEntry[];
}

/** Options of {@linkcode serveMcp}. */
export interface ServeMcpOptions {
  /**
   * Builds the roster's tools, each with the approver given. Called once at start (a failure
   * there is thrown) and again after each change to a watched file (a failure there is logged and
   * the last good roster kept). A tool that cannot be used is left out and logged once; when it
   * can be used again it is served again (with `notifications/tools/list_changed`).
   */
  load: (approver: Approver) => Promise<readonly Tool[] | LoadedRoster>;
  /** `--approve`: `prompt` asks through the client when it can, else denies. @default "prompt" */
  policy?: ApprovalPolicy | undefined;
  /** The user's config directory (remembered rules). */
  configDir: string;
  /** Where digests of the files an allow rule pins are cached. @default no cache */
  cacheDir?: string | undefined;
  /** The workspace root (workspace-scoped rules, and the hint in a denial). */
  root: string;
  /**
   * The language of what the server says: its log, its instructions, protocol errors, progress,
   * the approval form and a denial for want of one.
   * @default "en-US"
   */
  locale?: Locale;
  /** Files whose change reloads the roster (the manifests, spawn.json). @default [] */
  watch?: readonly string[];
  /** Quiet time after a change before reloading, in milliseconds. @default 150 */
  debounceMs?: number;
  /** The least time between two progress notifications of a call, in milliseconds. @default 100 */
  progressIntervalMs?: number;
  /**
   * How often the roster is loaded again while a tool is left out for a program that cannot be
   * found, in milliseconds. @default 5000
   */
  recheckMs?: number;
  /**
   * Where log lines go (never stdout). Each is also sent to the client as
   * `notifications/message` (MCP's logging; `logging/setLevel` filters it) once it is initialized.
   * @default stderr, each line after `basis-tools: `
   */
  log?: (line: string) => void;
  /** Where messages come from. @default the process's stdin */
  stdin?: Readable;
  /** Where messages go: nothing else is ever written there. @default the process's stdout */
  stdout?: Writable;
  /** Ends the server as if the client had gone away. */
  signal?: AbortSignal | undefined;
  /** Serves Streamable HTTP at this address instead of stdio (until `signal` aborts). */
  http?: HttpOptions | undefined;
}

export { type HttpOptions, isLoopback } from "./_http.ts";

/**
 * Serves the roster over MCP's stdio transport until the client closes stdin (or `signal`
 * aborts), or over Streamable HTTP with `http`, to clients of the 2025 protocol (`initialize`)
 * and of 2026-07-28 (stateless) alike: `tools/list` gives each tool's MCP definition; `tools/call` runs a call through the
 * contract. Refused input, denials and failed runs are results with `isError: true`; an unknown
 * tool is a protocol error (`-32602`). Calls run concurrently; a `notifications/cancelled` stops
 * its call's process group; progress is reported when a call carries a progress token. When a
 * watched file changes the roster is reloaded and `notifications/tools/list_changed` sent. When
 * the client goes away every running call is stopped before this resolves.
 *
 * @param options How to build the tools, the approval settings, what to watch, the streams.
 * @returns Resolves once the client is gone and every call has ended, telling whether calls were
 *   still running then (they were stopped).
 * @throws What `load` throws at start (a `ManifestError` for a broken manifest).
 * @example Serve a workspace's tools
 * ```ts ignore
 * import { serveMcp } from "./serve_mcp.ts";
 * await serveMcp({ load: (approver) => buildTools(approver), configDir, root });
 * ```
 */
export async function serveMcp(options: ServeMcpOptions): Promise<{ interrupted: boolean }> {
  const { locale = "en-US", stdin = process.stdin, stdout = process.stdout, signal } = options;
  // Many calls: their programs are tied to the server's life by one watchdog, not a setpriv each.
  tieToWatchdog();
  await loadLocale(locale);
  const words = messages(locale);
  const listeners = {
    changed: new Set<() => void>(),
    log: new Set<(l: LogLevel, d: string) => void>(),
  };
  const subscribe = <T>(set: Set<T>, listener: T) => {
    set.add(listener);
    return () => void set.delete(listener);
  };
  // Every line goes to stderr at once, to each 2025 client once it is initialized, and to the
  // 2026-07-28 request it was logged for when that request asked for the log.
  const logAt = (level: LogLevel) => (data: string) => {
    (options.log ?? logOnStderr)(data);
    for (const listener of listeners.log) listener(level, data);
    requestLog.getStore()?.(level, data);
  };
  const log = logAt("warning");
  const approver = mcpApprover(options, words, log);

  // Each tool left out is logged once, and again only when why changes.
  const told = new Map<string, string>();
  const tell = (next: Indexed) => {
    for (const { name, problems } of next.unavailable.values()) {
      const text = [words.t("mcp.tool_left_out", { tool: JSON.stringify(name) })]
        .concat(problems.map((problem) => `  ${formatProblem(problem, words)}`)).join("\n");
      if (told.get(name) !== text) log(text);
      told.set(name, text);
    }
    for (const name of told.keys()) {
      if (next.unavailable.has(name)) continue;
      told.delete(name);
      logAt("info")(words.t("mcp.tool_back", { tool: JSON.stringify(name) }));
    }
  };
  let roster: Indexed | undefined;
  const calls = new Set<Promise<unknown>>();
  const gate = { ...(options.cacheDir && { cacheDir: options.cacheDir }) };
  // Aborted when the server stops: every call in flight stops with it. The SDK aborts the calls it
  // tracks by request id, but a call whose id was cancelled and reused is no longer among those.
  const stopping = new AbortController();

  /** Runs one call of either revision, asking through its client's asker. */
  const call = (name: string, args: unknown, how: CallHow): Promise<Record<string, unknown>> => {
    const tool = roster!.tools.get(name);
    if (tool === undefined) {
      throw new ProtocolError(INVALID_PARAMS, notServed(name, roster!, words));
    }
    const progress = how.progress && ((lines: number) => {
      const count = plural(locale, lines, words.t("count.lines"));
      const message = words.t("mcp.progress", { count: lines, lines: count });
      return how.progress!({ progress: lines, message });
    });
    const running = asking.run(how.asker, async (): Promise<Record<string, unknown>> => {
      const reporter = progress && reportProgress(progress, options.progressIntervalMs ?? 100);
      try {
        // Gemini CLI's own flag, on every call: not the tool's unless its schema says so.
        const execution = await tool.execution(withoutGeminiWait(args, tool.inputSchema()));
        const signal = AbortSignal.any([how.signal, stopping.signal]);
        const output = await execution.execute({ signal, ...(reporter && reporter.sink) });
        const { structuredContent, result: text, content } = output;
        // A result both SDKs' clients would refuse (they check multipleOf in floating point),
        // refused here instead, with its text: served without structuredContent, the clients
        // would raise all the same (a tool with an outputSchema must give one).
        const schema = roster!.floatChecked.get(name);
        const miss = structuredContent && schema &&
          await floatMultipleOf({ name, outputSchema: schema }, structuredContent, gate);
        if (miss) {
          const { pointer, value, divisor } = miss;
          const said = { tool: JSON.stringify(name), pointer, value, divisor };
          const refused = words.t("mcp.float_multiple_of", said);
          return {
            content: [{ type: "text", text: refused }, { type: "text", text }],
            isError: true,
          };
        }
        // A tool with an output schema gives its structured result beside the same JSON as
        // text, for clients that read only the text; one declaring content, its blocks.
        return { ...(structuredContent && { structuredContent }), content };
      } catch (error) {
        // Nothing ran: the question goes back in the result, or the state approves nothing.
        if (error instanceof InputRequired) return error.result;
        if (error instanceof ProtocolError) throw error;
        if (error instanceof ToolError ? error.isUserFacing() : error instanceof BasisError) {
          const text = (error as BasisError).wordedIn(words);
          // What a call that timed out printed before it was stopped: the CLI streamed it.
          const printed = error instanceof ToolError ? error.printed : undefined;
          const before = printed === undefined
            ? []
            : [{ type: "text" as const, text: `${words.t("mcp.printed_before")}\n${printed}` }];
          return { content: [{ type: "text", text }, ...before], isError: true };
        }
        const quoted = JSON.stringify(name);
        if (error instanceof ToolError && error.code === "manifest_invalid") {
          // A configuration the operator must fix (a schema that does not compile): say which.
          const problem = error.wordedIn(words);
          logAt("error")(words.t("mcp.tool_unusable", { tool: quoted, problem }));
          throw new ProtocolError(-32603, problem);
        }
        // A bug: its stack trace, as it is, for whoever fixes it.
        const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
        logAt("error")(words.t("mcp.tool_bug", { tool: quoted, detail }));
        throw new ProtocolError(-32603, words.t("mcp.tool_bug_reply", { tool: quoted }));
      } finally {
        reporter?.stop();
      }
    });
    calls.add(running);
    running.finally(() => calls.delete(running)).catch(() => {});
    return running;
  };
  const served: Served = {
    words,
    instructions: words.t("mcp.instructions"),
    stopping: stopping.signal,
    list: () => roster!.list,
    call,
    onListChanged: (listener) => subscribe(listeners.changed, listener),
    onLog: (listener) => subscribe(listeners.log, listener),
    log,
  };
  // The stdio connection exists before the roster loads: what loading logs reaches its client.
  const stdio = options.http === undefined ? legacyServer(served) : undefined;
  roster = indexed(await options.load(approver));
  tell(roster);

  // One load at a time; a change while one runs is one more after it.
  let [reloading, queued, ended] = [Promise.resolve(), false, false];
  let recheck: ReturnType<typeof setTimeout> | undefined;
  const reload = () => {
    if (queued) return;
    queued = true;
    reloading = reloading.then(async () => {
      queued = false;
      try {
        const next = indexed(await options.load(approver));
        const changed = next.signature !== roster!.signature;
        roster = next;
        tell(next);
        if (changed) { for (const listener of listeners.changed) listener(); }
      } catch (error) {
        const lines = error instanceof BasisError
          ? errorLines(error, words)
          : [error instanceof Error ? (error.stack ?? error.message) : String(error)];
        const text = lines.join("\n").split("\n").map((line) => `  ${line}`);
        logAt("error")([words.t("mcp.reload_failed"), ...text].join("\n"));
      }
      scheduleRecheck();
    });
  };
  // While a tool's program cannot be found, the server looks again from time to time.
  const scheduleRecheck = () => {
    clearTimeout(recheck);
    const wanted = [...roster!.unavailable.values()].some((entry) => entry.recheck);
    recheck = ended || !wanted ? undefined : setTimeout(reload, options.recheckMs ?? 5_000);
  };
  scheduleRecheck();
  const watch = watchFiles(options.watch ?? [], reload, {
    debounceMs: options.debounceMs ?? 150,
    cannotWatch: (dir, reason) =>
      log(words.t("mcp.cannot_watch", { dir: JSON.stringify(dir), reason })),
  });

  const closed = Promise.withResolvers<void>();
  const end = () => {
    stopping.abort();
    closed.resolve();
  };
  if (stdio !== undefined) {
    stdio.server.onclose = end;
    stdio.server.onerror = (error) => log(`MCP: ${error.message}`);
  }
  const close = () => stdio === undefined ? end() : void stdio.server.close().catch(() => {});
  // The client went away: stdin ended, or stdout can no longer be written (EPIPE).
  if (stdio !== undefined) {
    stdin.once("end", close).once("close", close);
    stdout.on("error", close);
  }
  signal?.addEventListener("abort", close, { once: true });
  try {
    const count = roster.tools.size;
    const tools = plural(locale, count, words.t("count.tools"));
    const root = JSON.stringify(options.root);
    if (stdio === undefined) {
      const http = await serveHttp(served, options.http!, stopping.signal);
      logAt("info")(words.t("mcp.serving_http", { count, tools, root, url: http.url }));
      options.http!.onListen?.(http.url);
    } else {
      const modern = (request: ModernRequest, channel: Channel) =>
        modernRequest(served, request, channel);
      await stdio.server.connect(new LineTransport(stdin, stdout, words, log, modern));
      logAt("info")(words.t("mcp.serving", { count, tools, root }));
    }
    if (signal?.aborted) close();
    // Closing the transport aborts every request in flight: each call stops its process group.
    await closed.promise;
    return { interrupted: calls.size > 0 };
  } finally {
    ended = true;
    clearTimeout(recheck);
    watch.close();
    stdio?.detach();
    stdin.off("end", close).off("close", close);
    stdout.off("error", close);
    signal?.removeEventListener("abort", close);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const drained = new Promise((resolve) => timer = setTimeout(resolve, DRAIN_MS));
    await Promise.race([Promise.allSettled([...calls, reloading]), drained]);
    clearTimeout(timer);
  }
}

/** The tools by name, their `tools/list` result, a signature to tell whether it changed. */
type Indexed = ReturnType<typeof indexed>;

function indexed(loaded: readonly Tool[] | LoadedRoster) {
  const { tools, unavailable = [] } = "tools" in loaded ? loaded : { tools: loaded };
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  // Each definition's input schema says `"type": "object"`, as MCP requires (the contract's).
  const list: ListToolsResult = { tools: [...byName.values()].map((t) => t.definition("mcp")) };
  const left = new Map(unavailable.map((entry) => [entry.name, entry]));
  // The output schemas a client's float check of multipleOf may disagree with the gate's about.
  const floatChecked = new Map(
    list.tools.flatMap(({ name, outputSchema }) =>
      outputSchema && JSON.stringify(outputSchema).includes('"multipleOf"')
        ? [[name, outputSchema]]
        : []
    ),
  );
  return { tools: byName, unavailable: left, list, floatChecked, signature: JSON.stringify(list) };
}

/** Why a tool is not served: left out (and why), or unknown (and what it may have meant). */
function notServed(name: string, roster: Indexed, words: Messages): string {
  const tool = JSON.stringify(name);
  const left = roster.unavailable.get(name);
  if (left !== undefined) {
    const problems = left.problems.map((problem) => formatProblem(problem, words)).join("; ");
    return words.t("mcp.tool_unavailable", { tool, problems });
  }
  const near = nearWords(name, [...roster.tools.keys()], 3);
  if (near.length === 0) return words.t("mcp.unknown_tool", { tool });
  const names = listOf(near.map((n) => JSON.stringify(n)), "join.or");
  return words.say(phrase("mcp.unknown_tool_near", { tool, names }));
}

/**
 * Counts an execution's output lines and reports the number written so far (stdout and stderr
 * together; never the output itself, which may hold what the tool's env values are): the first
 * at once, later ones at most once every `intervalMs`, the latest always sent while the call runs.
 *
 * @returns What takes the output, and what stops sending (nothing is sent once it returns).
 */
function reportProgress(send: (lines: number) => Promise<unknown>, intervalMs: number) {
  let [lines, sent, next, stopped] = [0, 0, 0, false];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    timer = undefined;
    if (stopped || lines === sent) return;
    [sent, next] = [lines, performance.now() + intervalMs];
    send(lines).catch(() => {});
  };
  const onOutput = ({ data }: OutputChunk) => {
    for (let at = data.indexOf(0x0a); at !== -1; at = data.indexOf(0x0a, at + 1)) lines++;
    if (stopped || timer !== undefined || lines === sent) return;
    if (next <= performance.now()) flush();
    else timer = setTimeout(flush, next - performance.now());
  };
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
  };
  return { sink: { onOutput }, stop };
}

const ENCODER = new TextEncoder();

function logOnStderr(line: string): void {
  try {
    // One write, every line prefixed: lines from concurrent calls never interleave.
    const text = line.split("\n").map((part) => `basis-tools: ${part}\n`).join("");
    const bytes = ENCODER.encode(text);
    let written = 0;
    while (written < bytes.length) written += Deno.stderr.writeSync(bytes.subarray(written));
  } catch {
    // Nowhere left to say it.
  }
}
