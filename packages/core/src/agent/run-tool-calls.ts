import type { ToolCall } from "../tools/tool-call.js";
import { decideCalls, type RunnableCall } from "./decide-stage.js";
import { type RecordedCalls, recordCalls } from "./record-stage.js";
import { RunStage } from "./run-stage.js";
import type { ToolCallStepDeps, ToolCallStepOptions } from "./tool-call-step.js";

/**
 * One model turn's tool calls (or one direct call) as a pipeline: decide each call in order
 * (decide-stage.ts: routing, hooks, policy, approval), run the allowed ones in batches
 * (run-stage.ts: the registry's runner), then adapt and record every result, denials included,
 * in call order (record-stage.ts).
 */
export async function runToolCalls(
  deps: ToolCallStepDeps,
  calls: readonly ToolCall[],
  options: ToolCallStepOptions,
): Promise<RecordedCalls> {
  const stage = new RunStage(deps, options);
  const decided = await decideCalls(deps, calls, options, stage.scopeSignal);
  const runnable = decided.filter((item): item is RunnableCall => item.prepared !== undefined);
  await stage.runAll(runnable);
  return recordCalls(deps, decided, options.origin);
}
