import Anthropic from "@anthropic-ai/sdk";
import type { Provider } from "@pseudoclaude/core";
import type { ContentKind } from "@pseudoclaude/core/plugin";
import {
  type ProviderEvent,
  type ProviderRequest,
  requestSignal,
  type ToolNameMap,
} from "@pseudoclaude/core/provider";
import type { AnthropicOptions } from "./anthropic-options.js";
import { anthropicContextWindow } from "./context-window.js";
import { toModelError } from "./model-error.js";
import { type AnthropicSettings, resolveAnthropicSettings } from "./resolve-settings.js";
import { referencedTools, toolSearchBetaHeader } from "./server-tool-search.js";
import { translateStream } from "./stream-events.js";
import {
  ANTHROPIC_TOOL_RESULT_CONTENT,
  anthropicAcceptsContent,
  toAnthropicMessages,
} from "./wire-messages.js";
import { toOutputConfig } from "./wire-output.js";
import { AnthropicToolProjector } from "./wire-tools.js";

/**
 * Claude through the official SDK's streaming Messages API. Retries (429, 5xx, connection
 * errors) are the SDK's; everything the SDK finally throws becomes a ModelError.
 */
export class AnthropicProvider implements Provider {
  readonly name = "anthropic";
  readonly model: string;
  readonly contextWindow: number | undefined;
  readonly toolResultContent: readonly ContentKind[] = ANTHROPIC_TOOL_RESULT_CONTENT;
  /** SVG and other image types the API cannot decode become counted placeholders. */
  readonly acceptsContent = anthropicAcceptsContent;
  /**
   * The API's server-side tool search finds deferred tools (unless `toolSearch: false`): the
   * agent sends them with `defer_loading` instead of falling back to its own search tool.
   */
  readonly nativeToolSearch: boolean;
  /** The SDK client, for callers that need an endpoint this provider does not wrap. */
  readonly client: Anthropic;
  private readonly settings: AnthropicSettings;
  private readonly projector: AnthropicToolProjector;

  /** Throws a ConfigError naming the variable to set when no key is found. */
  constructor(private readonly options: AnthropicOptions = {}) {
    this.settings = resolveAnthropicSettings(options);
    this.model = this.settings.model;
    this.contextWindow = anthropicContextWindow(this.model, options.contextWindow);
    this.nativeToolSearch = this.settings.toolSearch !== false;
    this.projector = new AnthropicToolProjector(this.settings.promptCaching);
    this.client = new Anthropic({
      apiKey: this.settings.apiKey,
      // null, not undefined: the SDK would read ANTHROPIC_BASE_URL itself, bypassing `env`.
      baseURL: this.settings.baseURL ?? null,
      ...(this.settings.maxRetries !== undefined ? { maxRetries: this.settings.maxRetries } : {}),
      ...(this.settings.timeout !== undefined ? { timeout: this.settings.timeout } : {}),
      ...(this.settings.headers ? { defaultHeaders: this.settings.headers } : {}),
    });
  }

  /** Everything as configured but the model (its context window is the new model's own). */
  withModel(model: string): AnthropicProvider {
    const { contextWindow: _ownWindow, ...options } = this.options;
    return new AnthropicProvider({ ...options, model });
  }

  async *stream(request: ProviderRequest): AsyncIterable<ProviderEvent> {
    const { tools, names, messages, search } = this.wireRequest(request);
    const body: Anthropic.MessageCreateParamsStreaming = {
      model: this.model,
      max_tokens: this.settings.maxTokens,
      messages,
      stream: true,
    };
    if (request.system) {
      body.system = [{ type: "text", text: request.system }];
      if (this.settings.promptCaching) body.system[0]!.cache_control = { type: "ephemeral" };
    }
    if (tools.length > 0) body.tools = tools;
    // The API refuses a forced tool choice with extended thinking: there it stays `auto`.
    if (
      request.toolChoice === "required" &&
      tools.length > 0 &&
      this.settings.thinkingBudgetTokens === undefined
    )
      body.tool_choice = { type: "any" };
    if (this.settings.thinkingBudgetTokens !== undefined) {
      body.thinking = { type: "enabled", budget_tokens: this.settings.thinkingBudgetTokens };
    }
    if (request.output) body.output_config = toOutputConfig(request.output);
    // The SDK gets a signal of its own per request, so whatever listener it leaves on it goes
    // away with the request, never onto the run's signal.
    const scope = requestSignal(request.signal);
    try {
      const events = await this.client.messages.create(body, {
        ...(scope.signal ? { signal: scope.signal } : {}),
        ...(search
          ? // The beta is asked for only where it is used: other requests stay as they were.
            { headers: { "anthropic-beta": toolSearchBetaHeader(this.settings.headers) } }
          : {}),
      });
      yield* translateStream(events, names, request.signal);
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

  /**
   * The tools, the names to read calls back with and the conversation, as one request sends
   * them. With the API's tool search, the conversation is projected before the tools: which
   * found tools must be sent loaded depends on the search results it still holds.
   */
  private wireRequest(request: ProviderRequest): {
    tools: Anthropic.ToolUnion[];
    names: ToolNameMap;
    messages: Anthropic.MessageParam[];
    search: boolean;
  } {
    const variant = this.settings.toolSearch;
    const search = variant ? request.toolSearch : undefined;
    if (!variant || !search) {
      const { tools, names } = this.projector.project(request.tools);
      return {
        tools,
        names,
        messages: toAnthropicMessages(request.messages, names),
        search: false,
      };
    }
    const names = this.projector.namesWithSearch(request.tools, search);
    const messages = toAnthropicMessages(request.messages, names, { serverToolSearch: true });
    const referenced = referencedTools(messages);
    const tools = this.projector.projectWithSearch(
      request.tools,
      search,
      variant,
      names,
      referenced,
    );
    return { tools, names, messages, search: true };
  }
}

/** The Anthropic provider: `createAgent({ provider: anthropic({ model: "..." }) })`. */
export function anthropic(options: AnthropicOptions = {}): AnthropicProvider {
  return new AnthropicProvider(options);
}
