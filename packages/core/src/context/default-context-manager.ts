import type { Message, ToolResultMessage } from "../contracts/message.js";
import type { ProviderUsage } from "../contracts/provider.js";
import { ModelError } from "../errors.js";
import type { ContextCompaction, ContextManager, ContextRequest } from "./context-manager.js";
import {
  renderTranscript,
  TRANSCRIPT_TEXT_KEY,
  transcriptResultText,
} from "./render-transcript.js";
import { estimateRequestTokens } from "./token-estimate.js";

export interface DefaultContextManagerOptions {
  /** Compact when a request would exceed this share of the window. Default 0.8. */
  threshold?: number | undefined;
  /** Compact down to this share of the window. Default 0.5. */
  target?: number | undefined;
  /** The latest model turns (with their tool results) kept as they are. Default 2. */
  keepTurns?: number | undefined;
  /** Tool results shorter than this are never stubbed (nothing to gain). Default 400. */
  minStubChars?: number | undefined;
}

const SUMMARY_SYSTEM =
  "You summarise the earlier part of a conversation between a user and an AI agent that uses tools, so the agent can continue the task without it. Keep: the user's goals and constraints, decisions made, facts learned from tools (names, numbers, paths, ids), what was done and what is left. Be concise and concrete. Write the summary only.";

/**
 * The default: when a request would pass `threshold` of the window, first shorten the oldest
 * tool results (outside the latest `keepTurns` turns) to a stub that says what was removed and
 * how to get it again; if that is not enough to reach `target`, summarise the oldest turns
 * through the agent's own provider into one message. The summary reads what the tools
 * answered (cut to the transcript's size), never the stubs: a stub keeps that text in its
 * metadata, which no provider sends. The system prompt is never touched, the
 * latest turns stay whole, and the cut is always before a user prompt, so no tool call is ever
 * separated from its result.
 */
export class DefaultContextManager implements ContextManager {
  private readonly threshold: number;
  private readonly target: number;
  private readonly keepTurns: number;
  private readonly minStubChars: number;
  /** Reported tokens ÷ estimated tokens of the last request. */
  private calibration = 1;

  constructor(options: DefaultContextManagerOptions = {}) {
    this.threshold = options.threshold ?? 0.8;
    this.target = Math.min(options.target ?? 0.5, this.threshold);
    this.keepTurns = Math.max(1, options.keepTurns ?? 2);
    this.minStubChars = options.minStubChars ?? 400;
    if (!(this.threshold > 0 && this.threshold <= 1))
      throw new RangeError(`threshold must be in (0, 1] (got ${options.threshold}).`);
  }

  observe(estimated: number, actualInputTokens: number): void {
    if (estimated <= 0 || actualInputTokens <= 0) return;
    // Bounded, so one odd report cannot make every later estimate absurd.
    this.calibration = Math.min(4, Math.max(0.25, actualInputTokens / estimated));
  }

  estimate(request: Pick<ContextRequest, "system" | "messages" | "tools">): number {
    return Math.ceil(estimateRequestTokens(request) * this.calibration);
  }

  async prepare(request: ContextRequest): Promise<ContextCompaction | undefined> {
    const before = this.estimate(request);
    const window = request.window;
    if (!request.force && (window === undefined || before <= window * this.threshold))
      return undefined;
    const goal = window === undefined ? 0 : window * this.target;
    // Asked for (`/compact`): everything but the latest turn.
    const keepFrom = turnStart(request.messages, request.force ? 1 : this.keepTurns);
    const stubbed = this.stubToolResults(request.messages, keepFrom);
    let messages = stubbed.messages;
    let after = this.estimate({ ...request, messages });
    const stubsOnly: ContextCompaction = {
      messages,
      tokensBefore: before,
      tokensAfter: after,
      stage: "tool_results",
      stubbedResults: stubbed.count,
      summarizedMessages: 0,
    };
    if (!request.force && after <= goal) return stubsOnly;
    // Nothing old enough to summarise: the stubs are all there is to gain.
    if (keepFrom <= 0) return stubbed.count > 0 ? stubsOnly : undefined;
    // A hook (Claude Code's PreCompact) may hold the summary back: the stubs still apply.
    if (request.beforeSummary && !(await request.beforeSummary()))
      return stubbed.count > 0 ? stubsOnly : undefined;
    // Summarised from the messages before this compaction's stubs: the summary is meant to keep
    // what those results said. (Results stubbed by an earlier compaction keep their text.)
    const head = request.messages.slice(0, keepFrom);
    const { text, usage } = await this.summarize(request, head, window);
    messages = [
      {
        role: "user",
        content: `[Summary of the earlier conversation, written when it was compacted to fit the context window]\n${text}`,
      },
      ...messages.slice(keepFrom),
    ];
    after = this.estimate({ ...request, messages });
    return {
      messages,
      tokensBefore: before,
      tokensAfter: after,
      stage: "summary",
      stubbedResults: stubbed.count,
      summarizedMessages: head.length,
      ...(usage ? { usage } : {}),
    };
  }

  /** Old results become a stub naming the tool, its arguments and what was removed. */
  private stubToolResults(
    messages: readonly Message[],
    keepFrom: number,
  ): { messages: Message[]; count: number } {
    const args = new Map<string, unknown>();
    for (const message of messages)
      if (message.role === "assistant")
        for (const call of message.toolCalls) args.set(call.id, call.arguments);
    let count = 0;
    const out = messages.map((message, index): Message => {
      if (index >= keepFrom || message.role !== "tool" || message.result.metadata.compacted)
        return message;
      const chars = resultChars(message);
      if (chars < this.minStubChars) return message;
      count += 1;
      return stub(message, chars, args.get(message.callId));
    });
    return { messages: out, count };
  }

  private async summarize(
    request: ContextRequest,
    head: readonly Message[],
    window: number | undefined,
  ): Promise<{ text: string; usage?: ProviderUsage }> {
    // The transcript itself must fit: at most half the window, the newest part kept.
    const maxChars = window === undefined ? 200_000 : Math.max(4_000, window * 2);
    const transcript = renderTranscript(head, maxChars);
    let text = "";
    const usage: ProviderUsage = {};
    for await (const event of request.provider.stream({
      system: SUMMARY_SYSTEM,
      messages: [
        {
          role: "user",
          content: `Summarise this earlier part of our conversation:\n\n${transcript}`,
        },
      ],
      tools: [],
      signal: request.signal,
    })) {
      if (event.type === "text-delta") text += event.text;
      else if (event.type === "usage")
        for (const [key, value] of Object.entries(event.usage) as Array<
          [keyof ProviderUsage, number | undefined]
        >)
          if (typeof value === "number") usage[key] = (usage[key] ?? 0) + value;
    }
    if (text.trim() === "")
      throw new ModelError(
        "provider_failed",
        `Compacting the conversation failed: provider "${request.provider.name}" returned an empty summary.`,
      );
    return { text: text.trim(), usage };
  }
}

/**
 * Where the latest `keep` model turns begin: the `keep`-th last assistant message, or the user
 * prompt right before it (kept with its answer). Tool results always follow their call before
 * the next assistant message, so a cut here never separates a call from its result. 0 when
 * there are not more turns than that.
 */
function turnStart(messages: readonly Message[], keep: number): number {
  let seen = 0;
  for (let index = messages.length - 1; index >= 0; index--) {
    if (messages[index]?.role !== "assistant") continue;
    seen += 1;
    if (seen === keep) return messages[index - 1]?.role === "user" ? index - 1 : index;
  }
  return 0;
}

function resultChars(message: ToolResultMessage): number {
  let chars = 0;
  for (const block of message.result.content)
    chars += block.type === "text" ? block.text.length : JSON.stringify(block).length;
  if (message.result.structured !== undefined)
    chars += JSON.stringify(message.result.structured).length;
  return chars;
}

function stub(message: ToolResultMessage, chars: number, args: unknown): ToolResultMessage {
  const call = JSON.stringify(args ?? {});
  const text = `[Result of ${message.toolName} removed to fit the context window: ${chars} characters${message.result.ok ? "" : `, it failed (${message.result.error.code})`}. To see it again, call ${message.toolName} with ${call.length > 300 ? `${call.slice(0, 300)}…` : call}.]`;
  const { structured: _dropped, ...rest } = message.result;
  return {
    ...message,
    result: {
      ...rest,
      content: [{ type: "text", text }],
      metadata: {
        ...message.result.metadata,
        compacted: true,
        removed_chars: chars,
        [TRANSCRIPT_TEXT_KEY]: transcriptResultText(message),
      },
    },
  };
}
