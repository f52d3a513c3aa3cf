import type { ToolResultMessage } from "../conversation/message.js";
import type { PolicyEngine } from "../policy/policy-engine.js";
import { adaptResultContent } from "../provider/content-support.js";
import type { ToolRegistry } from "../registry/tool-registry.js";
import type { ContentBlock, ContentKind } from "../tools/content.js";
import type { ToolCall, ToolProgress } from "../tools/tool-call.js";
import type { ToolDefinition } from "../tools/tool-definition.js";
import { type ToolResult, toolFailure } from "../tools/tool-result.js";
import type { ToolCallRecord } from "./agent.js";
import type { AgentEvents } from "./agent-events.js";
import type { Approver } from "./callbacks.js";
import { decideToolCall, type ToolCallVerdict } from "./decide-tool-call.js";
import { planBatches } from "./execution-plan.js";

export interface ToolCallStepDeps {
  registry: ToolRegistry;
  policy: PolicyEngine;
  approve: Approver | undefined;
  /** Content kinds the model reads in results (see adaptResultContent); undefined: all. */
  toolResultContent: readonly ContentKind[] | undefined;
  /** The provider's finer check of single blocks, if it has one. */
  acceptsContent: ((block: ContentBlock) => boolean) | undefined;
  emit<E extends keyof AgentEvents>(event: E, payload: AgentEvents[E][0]): void;
  /** Whether anyone listens to `tool-progress` (progress is only requested then). */
  progressWanted(): boolean;
}

/**
 * One model turn's tool calls: each is decided in order (approvals are asked one at a time),
 * then the allowed ones run in batches - consecutive read-only calls together, side-effect calls
 * alone - and every result, including denials, comes back in call order.
 */
export async function runToolCalls(
  deps: ToolCallStepDeps,
  calls: readonly ToolCall[],
  options: { turn: number; signal: AbortSignal; timeoutMs: number | undefined },
): Promise<{ records: ToolCallRecord[]; messages: ToolResultMessage[] }> {
  const { registry, emit } = deps;
  const { turn, signal, timeoutMs } = options;
  const prepared: Array<{ call: ToolCall; record: ToolCallRecord; tool?: ToolDefinition }> = [];
  for (const call of calls) {
    emit("tool-call-start", { turn, call });
    const tool = registry.get(call.name)?.definition;
    if (!tool) {
      const result = await registry.execute(call, { signal });
      const record = toolCallRecord(call, turn, "deny", `Unknown tool "${call.name}".`, result);
      record.matched = { kind: "unknown_tool" };
      prepared.push({ call, record });
      continue;
    }
    const verdict = await decideToolCall(tool, call, deps.policy, deps.approve, signal, () =>
      registry.checkArguments(call),
    );
    emit("tool-decision", { turn, call, decision: verdict.decision, approval: verdict.approval });
    if (!verdict.allowed) {
      const result =
        verdict.refused ??
        toolFailure("denied", verdict.denial ?? verdict.decision.reason, {
          metadata: { tool: call.name, source: tool.source, call_id: call.id },
        });
      prepared.push({ call, record: decidedRecord(call, turn, verdict, result) });
      continue;
    }
    prepared.push({ call, record: decidedRecord(call, turn, verdict, undefined), tool });
  }
  const runnable = prepared.filter((item) => item.tool);
  for (const batch of planBatches(runnable, (item) => item.tool!.safety === "read_only")) {
    await Promise.all(
      batch.map(async (item) => {
        item.record.result = await registry.execute(item.call, {
          signal,
          argumentsChecked: item.record.approval === "approved",
          ...(timeoutMs !== undefined ? { timeoutMs } : {}),
          ...(deps.progressWanted()
            ? {
                onProgress: (progress: ToolProgress) =>
                  emit("tool-progress", { turn, call: item.call, progress }),
              }
            : {}),
        });
      }),
    );
  }
  const records: ToolCallRecord[] = [];
  const messages: ToolResultMessage[] = [];
  for (const { call, record } of prepared) {
    // What the model will see: kinds its provider cannot take become explicit placeholders.
    record.result = adaptResultContent(record.result, deps.toolResultContent, deps.acceptsContent);
    records.push(record);
    emit("tool-call-end", { turn, call, record, result: record.result });
    messages.push({ role: "tool", callId: call.id, toolName: call.name, result: record.result });
  }
  return { records, messages };
}

function decidedRecord(
  call: ToolCall,
  turn: number,
  verdict: ToolCallVerdict,
  result: ToolResult | undefined,
): ToolCallRecord {
  const record = toolCallRecord(
    call,
    turn,
    verdict.decision.decision,
    verdict.decision.reason,
    result,
  );
  record.matched = verdict.decision.matched;
  if (verdict.approval) record.approval = verdict.approval;
  return record;
}

/** A record for a call; a missing result is a framework bug, said as such. */
export function toolCallRecord(
  call: ToolCall,
  turn: number,
  decision: ToolCallRecord["decision"],
  reason: string,
  result: ToolResult | undefined,
): ToolCallRecord {
  return {
    id: call.id,
    name: call.name,
    arguments: call.arguments,
    turn,
    decision,
    reason,
    result: result ?? toolFailure("internal_error", "The call did not produce a result."),
  };
}
