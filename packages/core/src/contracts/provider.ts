import type { ContentBlock, ContentKind } from "./content.js";
import type { Message } from "./message.js";
import type { OutputFormat } from "./output-format.js";
import type { ToolCall } from "./tool-call.js";
import type { ToolDefinition } from "./tool-definition.js";

/** What the agent asks a model for, once per turn. */
export interface ProviderRequest {
  system: string;
  messages: readonly Message[];
  /**
   * The tools whose definitions are sent this turn, in a stable order: what is always loaded,
   * then (with our tool search) the search tool and the tools found so far, in the order
   * found. Only tools the policy lets the model see.
   */
  tools: readonly ToolDefinition[];
  /**
   * Set when the provider's own tool search serves this conversation (the provider declared
   * `nativeToolSearch`): the tools to send deferred, for the model to find with the API's
   * search tool, never loaded up front. See docs/tool-search.md.
   */
  toolSearch?: ProviderToolSearch;
  signal?: AbortSignal;
  /**
   * The final answer must be JSON matching this schema (a run with `output`). A provider uses
   * its API's native mechanism (a JSON-schema response format); the kernel validates the answer
   * either way, so a provider without one may ignore it.
   */
  output?: OutputFormat;
  /**
   * `required`: the model must call one of `tools` (an MCP server's sampling request may ask
   * for it). A provider maps it to its API's tool choice; one without a way to force a call
   * may treat it as `auto`, the default.
   */
  toolChoice?: "auto" | "required";
}

/** The deferred side of a request whose provider runs the search itself. */
export interface ProviderToolSearch {
  /** Tools not found yet: sent deferred (`defer_loading`), after every loaded tool. */
  deferred: readonly ToolDefinition[];
  /**
   * Tools the conversation found already, in the order found. The API loads them from the
   * search results in the conversation; a provider sends one loaded instead when its result
   * is no longer there (a compacted conversation), so it stays callable.
   */
  found: readonly ToolDefinition[];
}

/**
 * Tokens of one model call. `inputTokens` excludes cache reads and writes, which are counted
 * on their own, so the numbers mean the same for every provider.
 */
export interface ProviderUsage {
  inputTokens?: number;
  outputTokens?: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
}

export type StopReason =
  | "end_turn"
  | "tool_use"
  | "max_tokens"
  | "stop_sequence"
  | "refusal"
  /**
   * The API paused a long turn of its own server-side tools (Anthropic's `pause_turn`): the
   * agent sends the conversation back as it is, and the model goes on where it stopped.
   */
  | "pause_turn"
  | "other";

/** One event of a model's streamed answer. */
export type ProviderEvent =
  | { type: "text-delta"; text: string }
  /** The model's visible reasoning (extended thinking), for display; not part of the answer. */
  | { type: "reasoning-delta"; text: string }
  /**
   * Opaque data the provider needs back on its next request (e.g. signed thinking blocks that
   * must precede tool results). Stored on the assistant message under the provider's name.
   */
  | { type: "provider-data"; data: Record<string, unknown> }
  /**
   * A piece of a tool call's arguments as the model writes them (raw JSON text, registry
   * name), for display as it streams: the complete call still comes as `tool-call`, with the
   * same id. Optional: a provider that cannot stream arguments sends the call alone.
   */
  | { type: "tool-input-delta"; id: string; name: string; delta: string }
  | { type: "tool-call"; call: ToolCall }
  /**
   * The provider's own tool search ran (server-side) and found these tools (registry names);
   * they stay loaded for the rest of the conversation.
   */
  | { type: "tools-found"; query: string; names: string[] }
  | { type: "usage"; usage: ProviderUsage }
  | { type: "stop"; reason: StopReason };

/**
 * The model contract. A provider owns the mapping to its wire format: tool names, schema
 * rules and content kinds its API cannot take (as explicit placeholders, never dropped).
 */
export interface Provider {
  /** Short id such as `anthropic`, `openai`, `scripted`. */
  readonly name: string;
  readonly model?: string | undefined;
  /**
   * The model's context window in tokens, so the agent can compact a conversation before it
   * no longer fits (see docs/context.md). Undefined: unknown, no automatic compaction.
   */
  readonly contextWindow?: number | undefined;
  /**
   * Content kinds this model can read in a tool result. Others reach it as explicit text
   * placeholders (counted in the result's `metadata.content_placeholders`). Default: all.
   */
  readonly toolResultContent?: readonly ContentKind[] | undefined;
  /**
   * The most tools one request may carry (OpenAI: 128). Tool search defers tools before a
   * request would carry more. Undefined: no limit.
   */
  readonly maxTools?: number | undefined;
  /**
   * The API searches deferred tools itself (Anthropic's server-side tool search, OpenAI's
   * hosted `tool_search` in the Responses API): requests then carry `toolSearch`, and the
   * provider reports what the model found as `tools-found` events.
   */
  readonly nativeToolSearch?: boolean | undefined;
  /**
   * Finer than kinds: whether the API takes this block (e.g. which image types it decodes).
   * Rejected blocks become counted placeholders like unsupported kinds.
   */
  acceptsContent?(block: ContentBlock): boolean;
  /**
   * Undo what the provider's wire form of an output schema did to the answer (OpenAI's strict
   * mode makes optional fields required-but-nullable; this drops the nulls it added), before
   * the kernel validates it against the original schema. Default: the value as it is.
   */
  outputValue?(value: unknown, format: OutputFormat): unknown;
  /**
   * The same provider - client, key, endpoint, settings - for another model of its API (a
   * sub-agent or agent file that names its own `model`). Absent: the provider has one model.
   */
  withModel?(model: string): Provider;
  stream(request: ProviderRequest): AsyncIterable<ProviderEvent>;
}

/** DI token for {@link Provider}. */
export const Provider = Symbol.for("@pseudoclaude/core:Provider");
