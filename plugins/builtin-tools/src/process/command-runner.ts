import { type ChildProcess, spawn } from "node:child_process";
import { StringDecoder } from "node:string_decoder";
import { abortKind } from "@pseudoclaude/core/plugin";
import { groupAlive, terminateGroup, trackGroup, untrackGroup } from "@pseudoclaude/core/process";
import { HeadTailBuffer } from "../text/head-tail-buffer.js";

export interface CommandRequest {
  shell: string;
  command: string;
  /** Real, confined working directory. */
  cwd: string;
  maxOutputChars: number;
  killGraceMs: number;
  /** The call's signal: aborted on its one effective timeout or when the caller cancels. */
  signal: AbortSignal;
  /** A shorter deadline the command asked for (its `timeout_ms` argument). */
  deadlineMs?: number;
  env?: NodeJS.ProcessEnv;
}

/** Why the runner ended a command before it ended by itself. */
export type CommandStopReason = "deadline" | "timeout" | "cancelled" | "closed";

export interface CommandOutcome {
  exitCode: number | null;
  /** Signal that ended the shell, if one did. */
  signal: NodeJS.Signals | null;
  /** stdout and stderr interleaved as they arrived; beginning and end kept when capped. */
  output: string;
  outputChars: number;
  truncated: boolean;
  durationMs: number;
  stopped?: CommandStopReason;
  /** The last signal sent to the process group when the runner ended it. */
  killSignal?: "SIGTERM" | "SIGKILL";
  /** Processes the command left running in the background, ended after it exited. */
  leftoversEnded?: boolean;
  spawnError?: string;
}

/** Runs shell commands in process groups of their own and ends every one it started. */
export interface CommandRunner {
  run(request: CommandRequest): Promise<CommandOutcome>;
  /** End every running command (SIGTERM, then SIGKILL) and wait for them. */
  close(): Promise<void>;
}

/** How long to wait for the pipes to drain once the process group is gone. */
const DRAIN_MS = 500;

export class DefaultCommandRunner implements CommandRunner {
  private readonly running = new Map<AbortController, Promise<CommandOutcome>>();
  private closed = false;

  run(request: CommandRequest): Promise<CommandOutcome> {
    const local = new AbortController();
    if (this.closed) local.abort();
    const outcome = runOne(request, local.signal).finally(() => this.running.delete(local));
    this.running.set(local, outcome);
    return outcome;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const controller of this.running.keys()) controller.abort();
    await Promise.allSettled([...this.running.values()]);
  }
}

export function createCommandRunner(): CommandRunner {
  return new DefaultCommandRunner();
}

async function runOne(request: CommandRequest, closing: AbortSignal): Promise<CommandOutcome> {
  const started = performance.now();
  const buffer = new HeadTailBuffer(request.maxOutputChars);
  const finish = (fields: Partial<CommandOutcome>): CommandOutcome => ({
    exitCode: null,
    signal: null,
    output: buffer.text(),
    outputChars: buffer.totalChars,
    truncated: buffer.truncated,
    durationMs: Math.round(performance.now() - started),
    ...fields,
  });
  if (request.signal.aborted || closing.aborted) {
    return finish({ stopped: closing.aborted ? "closed" : stopReasonOf(request.signal) });
  }
  let child: ChildProcess;
  try {
    child = spawn(request.shell, ["-c", request.command], {
      cwd: request.cwd,
      env: { ...process.env, ...request.env },
      // Its own process group (and session): one signal to -pid reaches all it starts.
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (error) {
    return finish({ spawnError: (error as Error).message });
  }
  // Everything is wired before the first await, so no early event is missed.
  const decoders = { out: new StringDecoder("utf8"), err: new StringDecoder("utf8") };
  child.stdout?.on("data", (chunk: Buffer) => buffer.append(decoders.out.write(chunk)));
  child.stderr?.on("data", (chunk: Buffer) => buffer.append(decoders.err.write(chunk)));
  const closedStreams = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null } | Error>(
    (resolve) => {
      child.once("exit", (code, signal) => resolve({ code, signal }));
      child.once("error", (error) => resolve(error));
    },
  );
  const pid = child.pid;
  if (pid !== undefined) trackGroup(pid);

  let stopped: CommandStopReason | undefined;
  let killing: Promise<"SIGTERM" | "SIGKILL" | undefined> | undefined;
  const stop = (reason: CommandStopReason) => {
    if (stopped || pid === undefined) return;
    stopped = reason;
    killing = terminateGroup(pid, request.killGraceMs);
  };
  const onAbort = () => stop(stopReasonOf(request.signal));
  const onClose = () => stop("closed");
  request.signal.addEventListener("abort", onAbort, { once: true });
  closing.addEventListener("abort", onClose, { once: true });
  const deadline =
    request.deadlineMs !== undefined
      ? setTimeout(() => stop("deadline"), request.deadlineMs)
      : undefined;
  try {
    const status = await exited;
    if (status instanceof Error) return finish({ spawnError: status.message });
    let leftoversEnded: boolean | undefined;
    // Background jobs the command left in its group end with it: nothing is left behind.
    if (!stopped && pid !== undefined && groupAlive(pid)) {
      leftoversEnded = (await terminateGroup(pid, request.killGraceMs)) !== undefined;
    }
    const killSignal = await killing;
    await Promise.race([closedStreams, delay(DRAIN_MS)]);
    buffer.append(decoders.out.end());
    buffer.append(decoders.err.end());
    const fields: Partial<CommandOutcome> = { exitCode: status.code, signal: status.signal };
    if (stopped) fields.stopped = stopped;
    if (killSignal) fields.killSignal = killSignal;
    if (leftoversEnded) fields.leftoversEnded = true;
    return finish(fields);
  } finally {
    clearTimeout(deadline);
    request.signal.removeEventListener("abort", onAbort);
    closing.removeEventListener("abort", onClose);
    child.stdout?.destroy();
    child.stderr?.destroy();
    if (pid !== undefined) untrackGroup(pid);
  }
}

function stopReasonOf(signal: AbortSignal): CommandStopReason {
  return abortKind(signal) === "timeout" ? "timeout" : "cancelled";
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
