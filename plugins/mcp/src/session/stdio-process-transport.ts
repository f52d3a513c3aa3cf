import { type ChildProcess, spawn } from "node:child_process";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { UsageError } from "@pseudoclaude/core";
import { groupAlive, terminateGroup, trackGroup, untrackGroup } from "@pseudoclaude/core/process";
import type { StdioServerConfig } from "../config/server-config.js";
import { type McpServerErrorCode, type McpUsageErrorCode, ToolSourceError } from "../mcp-errors.js";
import { childEnvironment } from "./child-environment.js";
import { JsonLineReader } from "./json-line-reader.js";
import type { DialOptions } from "./mcp-session.js";
import { StderrTail } from "./stderr-tail.js";

export interface StdioProcessOptions {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  stderrTail: StderrTail;
  onStderrLine?: (line: string) => void;
  /** Waits of the close sequence: after stdin close, then after SIGTERM. */
  closeGraceMs?: { afterStdin: number; afterTerm: number };
}

/** Messages kept from a server that talks before its client connects. */
/** The answer to a send that went out at once. */
const SENT: Promise<void> = Promise.resolve();

const MAX_HELD = 100;

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * Our stdio transport for the MCP SDK. Unlike the SDK's, it starts the server in its own
 * process group and closes the whole group (stdin close, then SIGTERM, then SIGKILL, each
 * bounded), keeps stderr as a bounded tail, and remembers how the process exited so an early
 * exit can be reported with its code and last stderr lines.
 */
export class StdioProcessTransport implements Transport {
  // `| undefined` as in the SDK's Transport: a transport handed back unsets them.
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;

  private child: ChildProcess | undefined;
  private readonly reader = new JsonLineReader();
  private exited: Promise<void> | undefined;
  private exit: ExitInfo | undefined;
  private closing: Promise<void> | undefined;
  /** The spawn, started by `spawnEarly` or by the client's `start`. */
  private spawning: Promise<void> | undefined;
  private clientStarted = false;
  /** What the server said before the client started (at most MAX_HELD items). */
  private held: Array<{ message: JSONRPCMessage } | { error: Error }> = [];
  /** The process ended before the client started: the client hears it when it does. */
  private closedEarly = false;
  /** Set while a client tries this process: its close hands the process back instead. */
  private onTrial = false;
  /** An answer to an `exchange` that came after its wait ended (a slow server's). */
  private lateAnswer: JSONRPCMessage | undefined;
  private onLateAnswer: (() => void) | undefined;
  /** Whether stdin is corked for the current burst of sends. */
  private corked = false;
  /**
   * Messages are handed to the SDK one microtask apart, in order. SDK 1.x defers notification
   * handlers by a microtask but handles responses at once, so a progress notification read in
   * the same chunk as its response would otherwise find its handler already retired
   * (typescript-sdk#2580). A queue drained a message per microtask: a promise chain did the
   * same with two promises and a closure a message.
   */
  private readonly deliveries: JSONRPCMessage[] = [];
  private delivering = false;
  /** A request sent before the client started (`exchange`), waiting for its answer. */
  private waiting: { id: string | number; answer: (message: JSONRPCMessage) => void } | undefined;
  /** Ids of such requests: a late answer to one is dropped, never handed to the client. */
  private readonly exchanged = new Set<string | number>();

  constructor(private readonly options: StdioProcessOptions) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get exitInfo(): ExitInfo | undefined {
    return this.exit;
  }

  /** The version `initialize` negotiated; the SDK client tells every transport. */
  protocolVersion: string | undefined;

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  /**
   * Start the process now, before a client connects: the dialer spawns the server first and
   * loads the MCP SDK while it boots. The client's `start()` then waits for this spawn, and
   * what the server said or did in between (messages, its exit) reaches the client then.
   */
  spawnEarly(): void {
    this.spawning ??= this.spawnProcess();
    // A failed spawn is the client's `start()` to report; held here, it is no stray rejection.
    this.spawning.catch(() => undefined);
  }

  /** Why the process could not be started (a command not found), once the spawn settled. */
  async spawnFailure(): Promise<Error | undefined> {
    return this.spawning?.then(
      () => undefined,
      (error: Error) => error,
    );
  }

  /** The client's start: spawns the process, or takes over the early spawn. Once only. */
  start(): Promise<void> {
    if (this.clientStarted)
      throw new UsageError<McpUsageErrorCode>(
        "transport_already_started",
        "StdioProcessTransport already started",
      );
    this.clientStarted = true;
    this.spawning ??= this.spawnProcess();
    return this.spawning.then(() => {
      // Anything that came before the client was listening, in order, then a close if any.
      const held = this.held;
      this.held = [];
      for (const item of held) {
        if ("message" in item) this.deliver(item.message);
        else this.onerror?.(item.error);
      }
      if (this.closedEarly) this.onclose?.();
    });
  }

  private spawnProcess(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.options.command, this.options.args, {
        env: this.options.env,
        cwd: this.options.cwd,
        stdio: ["pipe", "pipe", "pipe"],
        // Own process group: closing kills descendants too.
        detached: true,
        windowsHide: true,
      });
      this.child = child;
      this.exited = new Promise((done) => {
        child.once("exit", (code, signal) => {
          this.exit = { code, signal };
          if (child.pid) untrackGroupWhenEmpty(child.pid);
          done();
        });
      });
      child.once("error", (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once("spawn", () => {
        if (child.pid) trackGroup(child.pid);
        resolve();
      });
      child.once("close", () => {
        if (this.clientStarted) this.onclose?.();
        else this.closedEarly = true;
      });
      child.stdin?.on("error", (error) => this.onerror?.(error));
      child.stdout?.on("data", (chunk: Buffer) => {
        for (const item of this.reader.push(chunk)) {
          if ("message" in item && this.answersExchange(item.message)) continue;
          if (!this.clientStarted) {
            // A server has nothing to say before initialize; a chatty one is kept to a bound.
            if (this.held.length < MAX_HELD) this.held.push(item);
          } else if ("message" in item) this.deliver(item.message);
          else this.onerror?.(item.error);
        }
      });
      child.stderr?.on("data", (chunk: Buffer) => {
        for (const line of this.options.stderrTail.push(chunk)) this.options.onStderrLine?.(line);
      });
    });
  }

  /**
   * Send one request before any client has started and wait for its answer, on this process:
   * the era probe (`server/discover`) that must not cost a second spawn. Resolves with the
   * answer, `closed` when the process ends first, or `timeout`. Anything else the server says
   * meanwhile is held for the client; a late answer is dropped.
   */
  exchange(
    request: { id: string | number } & JSONRPCMessage,
    timeoutMs: number,
  ): Promise<
    { kind: "answer"; message: JSONRPCMessage } | { kind: "closed" } | { kind: "timeout" }
  > {
    this.spawnEarly();
    const id = request.id;
    this.exchanged.add(id);
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const settle = (
        outcome:
          | { kind: "answer"; message: JSONRPCMessage }
          | { kind: "closed" }
          | { kind: "timeout" },
      ) => {
        clearTimeout(timer);
        this.waiting = undefined;
        this.child?.off("close", onClose);
        resolve(outcome);
      };
      const onClose = () => settle({ kind: "closed" });
      this.waiting = { id, answer: (message) => settle({ kind: "answer", message }) };
      timer = setTimeout(() => settle({ kind: "timeout" }), timeoutMs);
      this.spawning!.then(
        () => {
          if (this.exit || this.closedEarly) return settle({ kind: "closed" });
          this.child?.once("close", onClose);
          this.send(request).catch(() => settle({ kind: "closed" }));
        },
        () => settle({ kind: "closed" }),
      );
    });
  }

  /** Whether `message` answers an `exchange` request (taken by it, or dropped when late). */
  private answersExchange(message: JSONRPCMessage): boolean {
    const id = (message as { id?: string | number }).id;
    if (id === undefined || !this.exchanged.has(id) || "method" in message) return false;
    if (this.waiting?.id === id) this.waiting.answer(message);
    else {
      this.lateAnswer = message;
      this.onLateAnswer?.();
    }
    return true;
  }

  /** The late answer to an `exchange`, waited for up to `ms` (undefined if none came). */
  lateAnswerWithin(ms: number): Promise<JSONRPCMessage | undefined> {
    if (this.lateAnswer !== undefined || this.exit) return Promise.resolve(this.lateAnswer);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.onLateAnswer = undefined;
        this.child?.off("close", done);
        resolve(this.lateAnswer);
      };
      const timer = setTimeout(done, ms);
      this.onLateAnswer = done;
      this.child?.once("close", done);
    });
  }

  /**
   * Lend the process to a client that may fail to connect: until `keep`, that client's close
   * detaches it and leaves the process running for another client (the 2026 one, when a slow
   * server answered `server/discover` after all). `keep(false)` ends the loan with a real close.
   */
  lend(): void {
    this.onTrial = true;
  }

  async keep(kept: boolean): Promise<void> {
    this.onTrial = false;
    if (!kept) await this.close();
  }

  private deliver(message: JSONRPCMessage): void {
    this.deliveries.push(message);
    if (this.delivering) return;
    this.delivering = true;
    queueMicrotask(this.deliverNext);
  }

  private readonly deliverNext = (): void => {
    const message = this.deliveries.shift();
    try {
      if (message !== undefined) this.onmessage?.(message);
    } catch (error) {
      this.onerror?.(error as Error);
    } finally {
      // Queued after what the handler queued, so the SDK's deferred handler runs first.
      if (this.deliveries.length > 0) queueMicrotask(this.deliverNext);
      else this.delivering = false;
    }
  };

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed || this.exit) {
      return Promise.reject(
        new ToolSourceError<McpServerErrorCode>(
          "server_not_running",
          "The server process is not running.",
        ),
      );
    }
    // Messages sent in one burst (32 calls in flight, answered together) leave in one write:
    // corked until the ticks of this burst are done, then written at once. A write per
    // message was the largest client cost of concurrent calls (a syscall each).
    if (!this.corked) {
      this.corked = true;
      stdin.cork();
      process.nextTick(() => {
        this.corked = false;
        stdin.uncork();
      });
    }
    // One JSON object per line, as the SDK's serializeMessage writes it. Written under the
    // pipe's limit, the send is done: one settled promise serves every such send.
    let written: boolean;
    try {
      written = stdin.write(`${JSON.stringify(message)}\n`);
    } catch (error) {
      return Promise.reject(error);
    }
    if (written) return SENT;
    return new Promise((resolve) => stdin.once("drain", () => resolve()));
  }

  close(): Promise<void> {
    if (this.onTrial) {
      // Handed back: a new client may start on the same process.
      this.clientStarted = false;
      this.onmessage = undefined;
      this.onclose = undefined;
      this.onerror = undefined;
      return Promise.resolve();
    }
    this.closing ??= this.terminate();
    return this.closing;
  }

  private async terminate(): Promise<void> {
    const child = this.child;
    if (!child?.pid) return;
    const pid = child.pid;
    const grace = this.options.closeGraceMs ?? { afterStdin: 1_000, afterTerm: 2_000 };
    try {
      child.stdin?.end();
    } catch {
      // Already closed.
    }
    if (!this.exit) await waitFor(this.exited!, grace.afterStdin);
    // The direct child may be gone while its descendants live on: always check the group.
    if (groupAlive(pid)) await terminateGroup(pid, grace.afterTerm, () => this.exit !== undefined);
    await waitFor(this.exited!, 1_000);
    untrackGroup(pid);
  }
}

/** The transport for a configured stdio server, its stderr kept in `tail`. */
export function stdioTransport(
  server: StdioServerConfig,
  tail: StderrTail,
  options: Pick<DialOptions, "onStderr">,
): StdioProcessTransport {
  return new StdioProcessTransport({
    command: server.command,
    args: server.args,
    env: childEnvironment(server.env, server.inheritEnv),
    ...(server.cwd ? { cwd: server.cwd } : {}),
    stderrTail: tail,
    ...(options.onStderr ? { onStderrLine: options.onStderr } : {}),
  });
}

function untrackGroupWhenEmpty(pid: number): void {
  if (!groupAlive(pid)) untrackGroup(pid);
}

async function waitFor(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

export { StderrTail };
