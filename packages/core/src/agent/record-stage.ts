import type { ToolResultMessage } from "../contracts/message.js";
import type { PolicyDecision } from "../contracts/policy-engine.js";
import type { ProviderUsage } from "../contracts/provider.js";
import type { ToolCall } from "../contracts/tool-call.js";
import { type ToolResult, toolFailure } from "../contracts/tool-result.js";
import { adaptResultContent } from "../provider/content-support.js";
import type { ToolCallRecord } from "./agent.js";
import { type CallOrigin, turnNumber } from "./call-origin.js";
import type { DecidedCall } from "./decide-stage.js";
import { abortedDecision } from "./decide-tool-call.js";
import { addUsage } from "./model-turn.js";
import { subAgentUsage } from "./sub-agent.js";
import type { ToolCallStepDeps } from "./tool-call-step.js";

/** What a batch of calls leaves: a record each, and for a turn the messages the model reads. */
export interface RecordedCalls {
  records: ToolCallRecord[];
  messages: ToolResultMessage[];
  /** What the sub-agents these calls ran spent; it counts toward the run. */
  spent: ProviderUsage | undefined;
}

/**
 * The adapt and record stages, in call order: what the model will read of each result (kinds
 * its provider cannot take become explicit placeholders; a direct call's result is left as the
 * tool gave it), then the record, the `tool-call-end` event, the span's end and the message.
 */
export function recordCalls(
  deps: ToolCallStepDeps,
  decided: readonly DecidedCall[],
  origin: CallOrigin,
): RecordedCalls {
  const turn = turnNumber(origin);
  const provider = origin.kind === "turn" ? deps.providerRef.provider : undefined;
  const records: ToolCallRecord[] = [];
  const messages: ToolResultMessage[] = [];
  let spent: ProviderUsage | undefined;
  for (const item of decided) {
    const { call, span } = item;
    const record = toolCallRecord(call, turn, item.decision, item.result);
    const result = provider
      ? adaptResultContent(
          record.result,
          provider.toolResultContent,
          provider.acceptsContent?.bind(provider),
        )
      : record.result;
    record.result = result;
    if (item.approval) record.approval = item.approval;
    if (item.hooks) record.hooks = item.hooks;
    records.push(record);
    if (item.subAgent) {
      const usage = subAgentUsage(result);
      if (usage) {
        spent ??= {};
        addUsage(spent, usage);
      }
    }
    if (deps.listening("tool-call-end")) deps.emit("tool-call-end", { turn, call, record, result });
    span.end(item.hooks ? { result, hooks: item.hooks } : { result });
    if (origin.kind === "turn")
      messages.push({ role: "tool", callId: call.id, toolName: call.name, result });
  }
  return { records, messages, spent };
}

/** A record for a call; a missing result is a framework bug, said as such. */
export function toolCallRecord(
  call: ToolCall,
  turn: number,
  decision: PolicyDecision,
  result: ToolResult | undefined,
): ToolCallRecord {
  const record: ToolCallRecord = {
    id: call.id,
    name: call.name,
    arguments: call.arguments,
    turn,
    decision,
    result: result ?? toolFailure("internal_error", "The call did not produce a result."),
  };
  if (call.parentId !== undefined) record.parentId = call.parentId;
  return record;
}

/**
 * Calls the model asked for in a turn the run was aborted after: answered without running, so
 * every call in the history has its result.
 */
export function unrunCalls(
  calls: readonly ToolCall[],
  turn: number,
): { records: ToolCallRecord[]; messages: ToolResultMessage[] } {
  const records: ToolCallRecord[] = [];
  const messages: ToolResultMessage[] = [];
  for (const call of calls) {
    const result = toolFailure(
      "cancelled",
      `Call to "${call.name}" was not run: the run was aborted.`,
    );
    records.push(toolCallRecord(call, turn, abortedDecision(), result));
    messages.push({ role: "tool", callId: call.id, toolName: call.name, result });
  }
  return { records, messages };
}
