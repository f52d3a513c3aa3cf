import { type ChildProcess, spawn } from "node:child_process";
import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/client";
import { UsageError } from "@pseudoclaude/core";
import { groupAlive, terminateGroup, trackGroup, untrackGroup } from "@pseudoclaude/core/process";
import type { StdioServerConfig } from "../config/server-config.js";
import { type McpServerErrorCode, type McpUsageErrorCode, ToolSourceError } from "../mcp-errors.js";
import type { DialOptions } from "../mcp-session.js";
import { childEnvironment } from "./child-environment.js";
import { JsonLineReader } from "./json-line-reader.js";
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

/** The answer to a send that went out at once. */
const SENT: Promise<void> = Promise.resolve();

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
  // `| undefined` as in the SDK's Transport.
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;

  private child: ChildProcess | undefined;
  private readonly reader = new JsonLineReader();
  private exited: Promise<void> | undefined;
  private exit: ExitInfo | undefined;
  private closing: Promise<void> | undefined;
  /** The spawn, by `start`. */
  private spawning: Promise<void> | undefined;
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

  /** Why the process could not be started (a command not found), once the spawn settled. */
  async spawnFailure(): Promise<Error | undefined> {
    return this.spawning?.then(
      () => undefined,
      (error: Error) => error,
    );
  }

  /** Spawn the process; from then on what it says goes to `onmessage`. Once only. */
  start(): Promise<void> {
    if (this.spawning)
      throw new UsageError<McpUsageErrorCode>(
        "transport_already_started",
        "StdioProcessTransport already started",
      );
    this.spawning = this.spawnProcess();
    return this.spawning;
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
      child.once("close", () => this.onclose?.());
      child.stdin?.on("error", (error) => this.onerror?.(error));
      child.stdout?.on("data", (chunk: Buffer) => {
        for (const item of this.reader.push(chunk)) {
          if ("message" in item) this.deliver(item.message);
          else this.onerror?.(item.error);
        }
      });
      child.stderr?.on("data", (chunk: Buffer) => {
        for (const line of this.options.stderrTail.push(chunk)) this.options.onStderrLine?.(line);
      });
    });
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
