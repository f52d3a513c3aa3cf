import { type ChildProcess, spawn } from "node:child_process";
import { StringDecoder } from "node:string_decoder";
import { abortKind } from "../util/abort.js";
import { HeadTailBuffer } from "./head-tail-buffer.js";
import { groupAlive, terminateGroup, trackGroup, untrackGroup } from "./process-group.js";

/** One program to run to its end: a shell command line, a skill's script. */
export interface ProcessRequest {
  /** The program (a path, or a name looked up on `PATH`). */
  file: string;
  args: readonly string[];
  /** Real, confined working directory. */
  cwd: string;
  /** Added to this process's environment. */
  env?: NodeJS.ProcessEnv | undefined;
  /** Written to standard input, which is then closed. Without it, standard input is empty. */
  stdin?: string | undefined;
  maxOutputChars: number;
  /** How long SIGTERM may take before SIGKILL. */
  killGraceMs: number;
  /** The call's signal: aborted on its one effective timeout or when the caller cancels. */
  signal: AbortSignal;
  /** A shorter deadline the call asked for (a command's `timeout_ms` argument). */
  deadlineMs?: number | undefined;
  /** Also keep stdout and stderr apart (a hook's JSON answer and its reason), each capped. */
  separateStreams?: boolean | undefined;
  /**
   * Told each piece of output as it arrives (stdout and stderr, decoded), so a caller can show
   * a long command's progress while it runs; what it is told is not capped, the outcome is.
   */
  onOutput?: ((text: string) => void) | undefined;
}

/** Why the runner ended a process before it ended by itself. */
export type ProcessStopReason = "deadline" | "timeout" | "cancelled" | "closed";

export interface ProcessOutcome {
  exitCode: number | null;
  /** Signal that ended the program, if one did. */
  signal: NodeJS.Signals | null;
  /** stdout and stderr interleaved as they arrived; beginning and end kept when capped. */
  output: string;
  outputChars: number;
  truncated: boolean;
  durationMs: number;
  stopped?: ProcessStopReason;
  /** The last signal sent to the process group when the runner ended it. */
  killSignal?: "SIGTERM" | "SIGKILL";
  /** Processes the program left running in the background, ended after it exited. */
  leftoversEnded?: boolean;
  spawnError?: string;
  /** With `separateStreams`: each stream alone, capped like `output`. */
  stdout?: string;
  stderr?: string;
}

/** Runs programs in process groups of their own and ends every one it started. */
export interface ProcessRunner {
  run(request: ProcessRequest): Promise<ProcessOutcome>;
  /** End every running program (SIGTERM, then SIGKILL) and wait for them. */
  close(): Promise<void>;
}

/** How long to wait for the pipes to drain once the process group is gone. */
const DRAIN_MS = 500;

export class DefaultProcessRunner implements ProcessRunner {
  private readonly running = new Map<AbortController, Promise<ProcessOutcome>>();
  private closed = false;

  run(request: ProcessRequest): Promise<ProcessOutcome> {
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

/** A runner for one plugin; close it when the plugin's source closes. */
export function createProcessRunner(): ProcessRunner {
  return new DefaultProcessRunner();
}

async function runOne(request: ProcessRequest, closing: AbortSignal): Promise<ProcessOutcome> {
  const started = performance.now();
  const buffer = new HeadTailBuffer(request.maxOutputChars);
  const apart = request.separateStreams
    ? {
        out: new HeadTailBuffer(request.maxOutputChars),
        err: new HeadTailBuffer(request.maxOutputChars),
      }
    : undefined;
  const finish = (fields: Partial<ProcessOutcome>): ProcessOutcome => ({
    exitCode: null,
    signal: null,
    output: buffer.text(),
    outputChars: buffer.totalChars,
    truncated: buffer.truncated,
    durationMs: Math.round(performance.now() - started),
    ...(apart ? { stdout: apart.out.text(), stderr: apart.err.text() } : {}),
    ...fields,
  });
  const onOutput = request.onOutput;
  const append = (stream: "out" | "err", text: string) => {
    buffer.append(text);
    apart?.[stream].append(text);
    if (onOutput && text !== "") onOutput(text);
  };
  if (request.signal.aborted || closing.aborted) {
    return finish({ stopped: closing.aborted ? "closed" : stopReasonOf(request.signal) });
  }
  let child: ChildProcess;
  try {
    child = spawn(request.file, [...request.args], {
      cwd: request.cwd,
      env: { ...process.env, ...request.env },
      // Its own process group (and session): one signal to -pid reaches all it starts.
      detached: true,
      stdio: [request.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
  } catch (error) {
    return finish({ spawnError: (error as Error).message });
  }
  // Everything is wired before the first await, so no early event is missed.
  const decoders = { out: new StringDecoder("utf8"), err: new StringDecoder("utf8") };
  child.stdout?.on("data", (chunk: Buffer) => append("out", decoders.out.write(chunk)));
  child.stderr?.on("data", (chunk: Buffer) => append("err", decoders.err.write(chunk)));
  if (child.stdin) {
    // A program that exits without reading its input must not fail the call with EPIPE.
    child.stdin.on("error", () => {});
    child.stdin.end(request.stdin);
  }
  const closedStreams = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null } | Error>(
    (resolve) => {
      child.once("exit", (code, signal) => resolve({ code, signal }));
      child.once("error", (error) => resolve(error));
    },
  );
  const pid = child.pid;
  if (pid !== undefined) trackGroup(pid);

  let stopped: ProcessStopReason | undefined;
  let killing: Promise<"SIGTERM" | "SIGKILL" | undefined> | undefined;
  const stop = (reason: ProcessStopReason) => {
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
    // Background jobs the program left in its group end with it: nothing is left behind.
    if (!stopped && pid !== undefined && groupAlive(pid)) {
      leftoversEnded = (await terminateGroup(pid, request.killGraceMs)) !== undefined;
    }
    const killSignal = await killing;
    await Promise.race([closedStreams, delay(DRAIN_MS)]);
    append("out", decoders.out.end());
    append("err", decoders.err.end());
    const fields: Partial<ProcessOutcome> = { exitCode: status.code, signal: status.signal };
    if (stopped) fields.stopped = stopped;
    if (killSignal) fields.killSignal = killSignal;
    if (leftoversEnded) fields.leftoversEnded = true;
    return finish(fields);
  } finally {
    clearTimeout(deadline);
    request.signal.removeEventListener("abort", onAbort);
    closing.removeEventListener("abort", onClose);
    child.stdin?.destroy();
    child.stdout?.destroy();
    child.stderr?.destroy();
    if (pid !== undefined) untrackGroup(pid);
  }
}

function stopReasonOf(signal: AbortSignal): ProcessStopReason {
  return abortKind(signal) === "timeout" ? "timeout" : "cancelled";
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
