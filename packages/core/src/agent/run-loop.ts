import type { Provider, ProviderUsage } from "../contracts/provider.js";
import { UsageError } from "../errors.js";
import { IN_PROCESS_JOURNAL } from "../journal/run-journal.js";
import { compileOutput } from "../output/compile-output.js";
import type { RunSpan } from "../tracing/agent-tracer.js";
import type { RunOptions, RunResult, ToolCallRecord } from "./agent.js";
import type { AgentRuntime } from "./agent-runtime.js";
import { compactConversation } from "./compaction-step.js";
import { modelStep } from "./model-step.js";
import { addUsage } from "./model-turn.js";
import { OutputCheck } from "./output-check.js";
import { unrunCalls } from "./record-stage.js";
import { runToolCalls } from "./run-tool-calls.js";

/**
 * The ReAct loop of one run: each turn compacts if it must, asks the model, and runs the
 * calls it answered with (runToolCalls: decide, run, adapt, record), until the model answers
 * without calls (and, for a typed answer, one that fits the schema), the turns run out, or the
 * run is aborted.
 */
export async function runLoop(
  rt: AgentRuntime,
  provider: Provider,
  prompt: string,
  options: RunOptions,
  signal: AbortSignal,
  span: RunSpan,
): Promise<RunResult> {
  const maxTurns = options.maxTurns ?? rt.settings.maxTurns;
  const journal = options.journal ?? IN_PROCESS_JOURNAL;
  const check = options.output ? new OutputCheck(await compileOutput(options.output)) : undefined;
  let output: { value: unknown } | undefined;
  // A repair request gets its turn even when it is the last one allowed.
  let repairing = false;
  const usage: ProviderUsage = {};
  const records: ToolCallRecord[] = [];
  if (rt.hooks.has("beforeRun")) {
    const before = await rt.hooks.beforeRun({ ...rt.hookScope(), signal, prompt });
    if (before.deny !== undefined)
      throw new UsageError("run_blocked", `The prompt was blocked by a hook: ${before.deny}`);
    if (before.context.length > 0) prompt = [prompt, ...before.context].join("\n\n");
  }
  rt.conversation.append({ role: "user", content: prompt });
  rt.emit("run-start", { prompt });
  let text = "";
  let turn = 0;
  let stopReason: RunResult["stopReason"] = "max_turns";
  // The turn not yet in the session log: written as the next one starts, and at the end.
  let unsaved: ProviderUsage | undefined;
  try {
    while (turn < maxTurns || repairing) {
      if (unsaved) await rt.recorder?.turn(unsaved);
      unsaved = undefined;
      if (signal.aborted) {
        stopReason = "aborted";
        break;
      }
      turn += 1;
      rt.offered.turn = turn;
      // A tool the last calls added (a server's list_changed) is offered on this very turn.
      const listing = rt.sourcesCurrent();
      if (listing) await listing;
      const offer = rt.offered.offer();
      const tools = offer.sent;
      const compaction = await compactConversation(rt, {
        provider,
        tools,
        signal,
        force: false,
        turn,
        journal,
      });
      if (compaction?.usage) addUsage(usage, compaction.usage);
      const estimatedTokens = rt.context.estimate({
        system: rt.systemPrompt(),
        messages: rt.conversation.messages,
        tools,
      });
      rt.emit("turn-start", {
        turn,
        tools: tools.map((tool) => tool.name),
        estimatedTokens,
        toolSearch: offer.engine,
        deferredTools: offer.deferred.length,
        toolTokens: rt.context.estimate({ system: "", messages: [], tools }),
      });
      const answer = await journal.step(`turn-${turn}:model`, () =>
        modelStep(rt, provider, offer, turn, signal, check?.format, span),
      );
      for (const found of answer.found ?? []) rt.offered.providerFound(found.query, found.names);
      addUsage(usage, answer.usage);
      const reported =
        (answer.usage.inputTokens ?? 0) +
        (answer.usage.cacheReadTokens ?? 0) +
        (answer.usage.cacheWriteTokens ?? 0);
      if (reported > 0) rt.context.observe?.(estimatedTokens, reported);
      unsaved = answer.usage;
      text = answer.text;
      rt.conversation.append({
        role: "assistant",
        text: answer.text,
        toolCalls: answer.toolCalls,
        ...(answer.providerData ? { providerData: answer.providerData } : {}),
      });
      rt.emit("turn-end", {
        turn,
        text: answer.text,
        toolCalls: answer.toolCalls.length,
        stopReason: answer.stopReason,
        usage: answer.usage,
      });
      if (signal.aborted) {
        stopReason = "aborted";
        const unrun = unrunCalls(answer.toolCalls, turn);
        records.push(...unrun.records);
        rt.conversation.append(...unrun.messages);
        break;
      }
      // The API paused its own tools' turn: sending the conversation back resumes it.
      if (answer.toolCalls.length === 0 && answer.stopReason === "pause_turn") continue;
      if (answer.toolCalls.length === 0) {
        if (check) {
          const verdict = judgeOutput(rt, check, answer.text, provider);
          if ("repair" in verdict) {
            rt.emit("output-repair", { turn, issues: verdict.issues });
            rt.conversation.append(verdict.repair);
            repairing = true;
            continue;
          }
          output = verdict;
        }
        stopReason = "end_turn";
        break;
      }
      repairing = false;
      const done = await runToolCalls(rt.calls, answer.toolCalls, {
        origin: { kind: "turn", turn, run: span },
        signal,
        timeoutMs: options.toolTimeoutMs,
        journal,
      });
      records.push(...done.records);
      rt.conversation.append(...done.messages);
      // What sub-agents spent is this run's too.
      if (done.spent) addUsage(usage, done.spent);
      if (signal.aborted) {
        stopReason = "aborted";
        break;
      }
    }
  } finally {
    // Also when the provider failed: the prompt (and any answer so far) is kept.
    await rt.recorder?.turn(unsaved);
  }
  const result: RunResult = { text, turns: turn, toolCalls: records, stopReason, usage };
  if (output) result.output = output.value;
  rt.emit("run-end", result);
  if (rt.hooks.has("afterRun")) await rt.hooks.afterRun(result, { ...rt.hookScope(), signal });
  if (check && !output) throw check.missing(text, stopReason);
  return result;
}

/** A StructuredOutputError (the repair failed too) is reported like a model failure. */
function judgeOutput(
  rt: AgentRuntime,
  check: OutputCheck<unknown>,
  text: string,
  provider: Provider,
) {
  const format = check.format;
  try {
    return check.judge(
      text,
      provider.outputValue ? (value) => provider.outputValue!(value, format) : undefined,
    );
  } catch (error) {
    rt.emit("error", { stage: "model", error });
    throw error;
  }
}
