import { type ToolResult, toolFailure, toolSuccess } from "../contracts/tool-result.js";
import type { ProcessOutcome } from "./process-runner.js";

/** How to describe a finished process to the model. */
export interface ProcessResultLabel {
  /** What ran, capitalised, as the sentences start with it: `Command`, `Script`. */
  noun: string;
  /** The working directory as the model knows it. */
  cwd: string;
  /** The timeout that applied, for the "timed out after" sentence. */
  timeoutMs: number;
  /** Whether that timeout came from the call's own argument (`timeout_ms`). */
  fromArgument?: boolean;
}

/**
 * A program that exited 0 is a success. Any other end is a failure the model sees with the
 * output: a non-zero exit or a signal is `tool_error`, our timeout is `timeout`, a cancel is
 * `cancelled`. Exit code and signal are in `structured` and `metadata` either way, so shell
 * commands and skill scripts report the same facts the same way.
 */
export function processResult(outcome: ProcessOutcome, label: ProcessResultLabel): ToolResult {
  const status = describeStatus(outcome, label);
  const structured = {
    exit_code: outcome.exitCode,
    signal: outcome.signal,
    timed_out: outcome.stopped === "deadline" || outcome.stopped === "timeout",
    ...(outcome.stopped ? { stopped: outcome.stopped } : {}),
    ...(outcome.killSignal ? { killed_with: outcome.killSignal } : {}),
    ...(outcome.leftoversEnded ? { background_processes_ended: true } : {}),
    output_chars: outcome.outputChars,
    truncated: outcome.truncated,
    duration_ms: outcome.durationMs,
    cwd: label.cwd,
  };
  const metadata = { exit_code: outcome.exitCode, signal: outcome.signal };
  const body = outcome.output === "" ? "(no output)" : outcome.output.replace(/\n$/, "");
  const content = [{ type: "text" as const, text: `${body}\n[${status}]` }];
  if (outcome.spawnError) {
    return toolFailure(
      "tool_error",
      `Could not start the ${label.noun.toLowerCase()}: ${outcome.spawnError}`,
      { structured, metadata },
    );
  }
  if (outcome.stopped) {
    const code =
      outcome.stopped === "deadline" || outcome.stopped === "timeout" ? "timeout" : "cancelled";
    return toolFailure(code, status, { content, structured, metadata });
  }
  if (outcome.exitCode !== 0)
    return toolFailure("tool_error", status, { content, structured, metadata });
  return toolSuccess(content, { structured, metadata });
}

function describeStatus(outcome: ProcessOutcome, label: ProcessResultLabel): string {
  const { noun } = label;
  const ended = outcome.killSignal
    ? `; its process group was ended with ${outcome.killSignal}`
    : "";
  const leftovers = outcome.leftoversEnded ? "; background processes it left were ended" : "";
  switch (outcome.stopped) {
    case "deadline":
    case "timeout":
      return `${noun} timed out after ${label.timeoutMs} ms${label.fromArgument ? " (its timeout_ms)" : ""}${ended}.`;
    case "cancelled":
      return `${noun} cancelled${ended}.`;
    case "closed":
      return `${noun} stopped because the agent closed${ended}.`;
    default:
      if (outcome.signal) return `${noun} ended by signal ${outcome.signal}${leftovers}.`;
      return `Exit code ${outcome.exitCode}${leftovers}.`;
  }
}
