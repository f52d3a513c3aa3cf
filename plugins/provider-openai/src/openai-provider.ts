import type { Provider } from "@pseudoclaude/core";
import type { ContentKind } from "@pseudoclaude/core/plugin";
import {
  type OutputFormat,
  type ProviderEvent,
  type ProviderRequest,
  requestSignal,
} from "@pseudoclaude/core/provider";
import OpenAI from "openai";
import { CHAT_TOOL_RESULT_CONTENT, toChatMessages } from "./chat-messages.js";
import { translateChatStream } from "./chat-stream.js";
import { openaiContextWindow } from "./context-window.js";
import { usesHostedToolSearch } from "./hosted-search-support.js";
import { referencedTools } from "./hosted-tool-search.js";
import { toModelError } from "./model-error.js";
import type { OpenAIOptions } from "./openai-options.js";
import { type OpenAISettings, resolveOpenAISettings } from "./resolve-settings.js";
import { RESPONSES_TOOL_RESULT_CONTENT, toResponsesInput } from "./responses-input.js";
import { translateResponsesStream } from "./responses-stream.js";
import { readOutputValue, toWireOutput } from "./wire-output.js";
import { OpenAIToolProjector, responsesFunction } from "./wire-tools.js";

/**
 * OpenAI, or any OpenAI-compatible server (Ollama, vLLM, llama.cpp, LM Studio, OpenRouter)
 * through `baseURL`, via the official SDK with streaming. Chat Completions by default; the
 * Responses API with `api: "responses"`. Retries are the SDK's; everything it finally throws
 * becomes a ModelError.
 */
export class OpenAIProvider implements Provider {
  readonly name = "openai";
  readonly model: string;
  readonly contextWindow: number | undefined;
  readonly toolResultContent: readonly ContentKind[];
  /** OpenAI refuses a request with more function tools (see the `maxTools` option). */
  readonly maxTools: number | undefined;
  /**
   * OpenAI's hosted `tool_search` finds deferred tools: on the Responses API, against OpenAI's
   * endpoint with a model that supports it, or forced (see `usesHostedToolSearch`). Otherwise
   * the agent's own search tool serves, as it does every model and server.
   */
  readonly nativeToolSearch: boolean;
  /** The SDK client, for callers that need an endpoint this provider does not wrap. */
  readonly client: OpenAI;
  private readonly settings: OpenAISettings;
  private readonly projector: OpenAIToolProjector;

  /** Throws a ConfigError naming the variable to set when no key is found. */
  constructor(private readonly options: OpenAIOptions = {}) {
    this.settings = resolveOpenAISettings(options);
    this.model = this.settings.model;
    this.contextWindow = openaiContextWindow(this.model, options.contextWindow);
    this.toolResultContent =
      this.settings.api === "responses" ? RESPONSES_TOOL_RESULT_CONTENT : CHAT_TOOL_RESULT_CONTENT;
    this.maxTools = this.settings.maxTools;
    this.nativeToolSearch = usesHostedToolSearch(this.settings);
    this.projector = new OpenAIToolProjector(this.settings.strict);
    this.client = new OpenAI({
      apiKey: this.settings.apiKey,
      // null, not undefined: the SDK would read OPENAI_* itself, bypassing `env`.
      baseURL: this.settings.baseURL ?? null,
      organization: this.settings.organization ?? null,
      project: this.settings.project ?? null,
      ...(this.settings.maxRetries !== undefined ? { maxRetries: this.settings.maxRetries } : {}),
      ...(this.settings.timeout !== undefined ? { timeout: this.settings.timeout } : {}),
      ...(this.settings.headers ? { defaultHeaders: this.settings.headers } : {}),
    });
  }

  outputValue(value: unknown, format: OutputFormat): unknown {
    return readOutputValue(value, format, this.settings.strictOutput);
  }

  /** Everything as configured but the model (its context window is the new model's own). */
  withModel(model: string): OpenAIProvider {
    const { contextWindow: _ownWindow, ...options } = this.options;
    return new OpenAIProvider({ ...options, model });
  }

  async *stream(request: ProviderRequest): AsyncIterable<ProviderEvent> {
    // The SDK never removes the abort listener it adds to the signal it gets: it gets one of
    // its own per request, so a run's signal does not collect a listener per request.
    const scope = requestSignal(request.signal);
    const options = scope.signal ? { signal: scope.signal } : undefined;
    try {
      if (this.settings.api === "responses") {
        yield* this.streamResponses(request, options);
      } else {
        yield* this.streamChat(request, options);
      }
    } catch (error) {
      if (request.signal?.aborted) return;
      throw toModelError(error, {
        model: this.model,
        baseURL: this.client.baseURL,
        apiKey: this.settings.apiKey,
      });
    } finally {
      scope.dispose();
    }
  }

  private async *streamChat(
    request: ProviderRequest,
    options: { signal: AbortSignal } | undefined,
  ): AsyncIterable<ProviderEvent> {
    const tools = this.projector.project(request.tools);
    const body: OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming = {
      model: this.model,
      messages: toChatMessages(request.system, request.messages, tools.names),
      stream: true,
    };
    if (this.settings.streamUsage) body.stream_options = { include_usage: true };
    // Some compatible servers reject an empty list: leave the field out instead.
    if (tools.functions.length > 0) {
      body.tools = tools.functions.map(({ strict, ...fn }) => ({
        type: "function",
        function: strict ? { ...fn, strict } : fn,
      }));
      if (request.toolChoice === "required") body.tool_choice = "required";
    }
    if (this.settings.maxTokens !== undefined)
      body[this.settings.maxTokensField] = this.settings.maxTokens;
    if (this.settings.reasoningEffort) body.reasoning_effort = this.settings.reasoningEffort;
    if (request.output) {
      const output = toWireOutput(request.output, this.settings.strictOutput);
      body.response_format = { type: "json_schema", json_schema: output };
    }
    const chunks = await this.client.chat.completions.create(body, options);
    yield* translateChatStream(chunks, tools, request.signal);
  }

  private async *streamResponses(
    request: ProviderRequest,
    options: { signal: AbortSignal } | undefined,
  ): AsyncIterable<ProviderEvent> {
    const search = this.nativeToolSearch ? request.toolSearch : undefined;
    const tools = search
      ? this.projector.projectWithSearch(request.tools, search)
      : this.projector.project(request.tools);
    const input = toResponsesInput(request.messages, tools.names, {
      hostedToolSearch: search !== undefined,
    });
    const body: OpenAI.Responses.ResponseCreateParamsStreaming = {
      model: this.model,
      input,
      stream: true,
      // The conversation is resent each turn; nothing needs to live on the server.
      store: false,
    };
    if (request.system) body.instructions = request.system;
    if (search) {
      // Which found tools must be sent loaded depends on the search outputs `input` still holds.
      body.tools = this.projector.responsesToolsWithSearch(
        request.tools,
        search,
        tools,
        referencedTools(input),
      );
      if (request.toolChoice === "required") body.tool_choice = "required";
    } else if (tools.functions.length > 0) {
      body.tools = tools.functions.map((fn) => responsesFunction(fn));
      if (request.toolChoice === "required") body.tool_choice = "required";
    }
    if (this.settings.maxTokens !== undefined) body.max_output_tokens = this.settings.maxTokens;
    if (this.settings.reasoningEffort) {
      body.reasoning = { effort: this.settings.reasoningEffort, summary: "auto" };
      // Nothing is stored server-side, so the reasoning must travel with the conversation.
      body.include = ["reasoning.encrypted_content"];
    }
    if (request.output) {
      const output = toWireOutput(request.output, this.settings.strictOutput);
      body.text = { format: { type: "json_schema", ...output } };
    }
    const events = await this.client.responses.create(body, options);
    yield* translateResponsesStream(events, tools, request.signal);
  }
}

/**
 * The OpenAI provider: `createAgent({ provider: openai({ model: "..." }) })`, or with
 * `baseURL` for an OpenAI-compatible server.
 */
export function openai(options: OpenAIOptions = {}): OpenAIProvider {
  return new OpenAIProvider(options);
}
