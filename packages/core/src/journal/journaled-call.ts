import { readApprovalAnswer } from "../contracts/callbacks.js";
import type { ToolCall } from "../contracts/tool-call.js";
import type { ToolDefinition } from "../contracts/tool-definition.js";
import { type ToolResult, toolFailure } from "../contracts/tool-result.js";
import { handedOffTask, type ToolTaskMode } from "../contracts/tool-task.js";
import { IN_PROCESS_JOURNAL, type JournalDecisionRequest, type RunJournal } from "./run-journal.js";

/** A step of the `result` journal entry: the call ran, or a replay found it interrupted. */
type CallOutcome = { ran: ToolResult } | { interrupted: true };

/**
 * Run one tool call as a journal step. A read-only call is one step: replayed from its record,
 * or run again if it never finished. A side-effect call first records that it started; a
 * replay that finds it started but unfinished does not silently run it again, but follows the
 * journal's `onInterruptedSideEffect` (default `ask`: it may have run once already).
 *
 * A call that becomes a long-running task (an MCP task) is handed off: its step records the
 * task's reference as soon as the task exists, and a step of its own waits for the task. A
 * worker that dies while the task runs leaves that reference behind, and the worker that
 * replays the run waits for the same task instead of starting the call again.
 */
export async function journaledCall(
  journal: RunJournal,
  step: string,
  call: ToolCall,
  tool: ToolDefinition,
  execute: (task?: ToolTaskMode) => Promise<ToolResult>,
  ask: (request: JournalDecisionRequest) => Promise<unknown>,
  /** Made only when asked: a call nobody can cancel makes no signal (see callTool). */
  signal: () => AbortSignal,
): Promise<ToolResult> {
  // The default journal costs nothing: no step names, no closures beyond the call itself.
  if (journal === IN_PROCESS_JOURNAL) return execute();
  const handoff = async (): Promise<ToolResult> => execute(HANDOFF);
  const awaited = async (result: ToolResult): Promise<ToolResult> => {
    const reference = handedOffTask(result);
    return reference ? journal.step(`${step}:task`, () => execute({ resume: reference })) : result;
  };
  if (tool.safety === "read_only") return awaited(await journal.step(`${step}:result`, handoff));
  let startedHere = false;
  await journal.step(`${step}:started`, async () => {
    startedHere = true;
    return true;
  });
  // The start must be stored before the call runs, or a crash could forget it and a replay
  // would run the call again as if it never started. Also on a replay: an engine replays its
  // journal in order, so the checkpoint is part of it.
  await journal.checkpoint?.();
  // `startedHere` is false only on a replay that found the start recorded: the worker that
  // started the call stopped before it recorded the result.
  const outcome = await journal.step<CallOutcome>(`${step}:result`, async () =>
    startedHere ? { ran: await handoff() } : { interrupted: true },
  );
  if ("ran" in outcome) return awaited(outcome.ran);
  const policy = journal.onInterruptedSideEffect ?? "ask";
  const maybe = `Call to "${call.name}" was interrupted: its worker stopped while it ran, so it may have run once already.`;
  if (policy === "retry") return awaited(await journal.step(`${step}:retry`, handoff));
  if (policy === "fail")
    return toolFailure(
      "interrupted",
      `${maybe} It was not run again (on_interrupted_side_effect: fail).`,
    );
  const answer = await ask({
    step: `${step}:interrupted`,
    interrupted: true,
    tool,
    call,
    decision: {
      verdict: "ask",
      reason: `${maybe} Run it again?`,
      matched: { kind: "interrupted" },
    },
    signal: signal(),
  });
  const { verdict, why } = readApprovalAnswer(answer);
  if (verdict === "allow") return awaited(await journal.step(`${step}:retry`, handoff));
  return toolFailure("interrupted", `${maybe} Running it again was denied${why}.`);
}

const HANDOFF: ToolTaskMode = Object.freeze({ handoff: true });
