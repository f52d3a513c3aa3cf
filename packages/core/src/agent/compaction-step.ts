import type { ContextCompaction, ContextManager } from "../context/context-manager.js";
import type { AgentEvents } from "../contracts/agent-events.js";
import type { HookScope } from "../contracts/agent-hooks.js";
import type { Provider } from "../contracts/provider.js";
import type { ToolDefinition } from "../contracts/tool-definition.js";
import type { Conversation } from "../conversation/conversation.js";
import type { HookList } from "../hooks/hook-list.js";
import { IN_PROCESS_JOURNAL, type RunJournal } from "../journal/run-journal.js";
import type { SessionRecorder } from "./session-recorder.js";

/** What compacting an agent's conversation reads and writes. */
export interface CompactionDeps {
  context: ContextManager;
  conversation: Conversation;
  recorder: SessionRecorder | undefined;
  hooks: HookList;
  hookScope(): Omit<HookScope, "signal">;
  systemPrompt(): string;
  /** The configured window; the provider's own when absent. */
  contextWindow(): number | undefined;
  emit(event: "compaction", payload: AgentEvents["compaction"][0]): void;
}

/** One request to compact: before a model turn (`force` false) or asked for (`/compact`). */
export interface CompactionRequest {
  provider: Provider;
  tools: readonly ToolDefinition[];
  signal: AbortSignal;
  force: boolean;
  turn: number;
  journal?: RunJournal;
}

/**
 * Ask the context manager whether the next request fits; when it compacts, the conversation
 * takes its messages, the session log records it, and listeners hear of it. A
 * `beforeCompaction` hook may hold the summary back (the stubs still apply).
 */
export async function compactConversation(
  deps: CompactionDeps,
  { provider, tools, signal, force, turn, journal = IN_PROCESS_JOURNAL }: CompactionRequest,
): Promise<ContextCompaction | undefined> {
  const window = deps.contextWindow() ?? provider.contextWindow;
  const { hooks } = deps;
  const beforeSummary = hooks.has("beforeCompaction")
    ? async () => {
        const verdict = await hooks.beforeCompaction({
          ...deps.hookScope(),
          signal,
          trigger: force ? "manual" : "auto",
          turn,
        });
        return verdict.skip === undefined;
      }
    : undefined;
  // A summary is a model request: recorded as a step, null when nothing was compacted.
  const { compaction } = await journal.step(`turn-${turn}:compaction`, async () => ({
    compaction:
      (await deps.context.prepare({
        system: deps.systemPrompt(),
        messages: deps.conversation.messages,
        tools,
        window,
        provider,
        signal,
        ...(force ? { force } : {}),
        ...(beforeSummary ? { beforeSummary } : {}),
      })) ?? null,
  }));
  if (!compaction) return undefined;
  deps.conversation.replace(compaction.messages);
  await deps.recorder?.compacted(
    compaction.messages,
    compaction.tokensBefore,
    compaction.tokensAfter,
  );
  deps.emit("compaction", {
    turn,
    stage: compaction.stage,
    tokensBefore: compaction.tokensBefore,
    tokensAfter: compaction.tokensAfter,
    window,
    stubbedResults: compaction.stubbedResults,
    summarizedMessages: compaction.summarizedMessages,
  });
  return compaction;
}
