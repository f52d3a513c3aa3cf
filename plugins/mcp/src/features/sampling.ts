import type { Provider } from "@pseudoclaude/core";
import {
  ConfigError,
  type ToolDefinition,
  toolFailure,
  toolSuccess,
  UsageError,
} from "@pseudoclaude/core";
import {
  type AgentCallbacks,
  describeContentBlock,
  type ProviderRef,
  type ToolCall,
} from "@pseudoclaude/core/plugin";
import type { Message } from "@pseudoclaude/core/provider";
import { contentBlockOf } from "../adapt/convert-result.js";
import type { McpConfigErrorCode, McpUsageErrorCode } from "../mcp-errors.js";
import type { SamplingRequest, SamplingResponse } from "../mcp-session.js";

/**
 * Sampling (a server asking our model for a completion) is declared only for servers that
 * enable it, and each request needs the person's approval, then goes through the agent's
 * provider with the tools the server offers for it, if any (the server runs those itself).
 */
export function createSampler(callbacks: AgentCallbacks, providerRef: ProviderRef) {
  return async (request: SamplingRequest, signal: AbortSignal): Promise<SamplingResponse> => {
    const agentProvider = providerRef.provider;
    if (!agentProvider)
      throw new ConfigError<McpConfigErrorCode>(
        "sampling_without_provider",
        "This agent has no model provider to sample with.",
      );
    if (!callbacks.approve)
      throw new ConfigError<McpConfigErrorCode>(
        "sampling_without_approver",
        "Sampling needs approval and no approver is configured.",
      );
    const tool: ToolDefinition = {
      name: `mcp__${request.server}__sampling`,
      description: `MCP server "${request.server}" asks the model for a completion.`,
      inputSchema: { type: "object" },
      safety: "side_effect",
      source: `mcp:${request.server}`,
    };
    const call = { id: `sampling_${Date.now().toString(36)}`, name: tool.name, arguments: request };
    const answer = await callbacks.approve({
      tool,
      call,
      decision: {
        verdict: "ask",
        reason: "A server wants to use the model.",
        matched: { kind: "approval", approver: "callback" },
      },
      signal,
    });
    const verdict = typeof answer === "string" ? answer : answer.verdict;
    if (verdict !== "allow")
      throw new UsageError<McpUsageErrorCode>(
        "sampling_declined",
        "The user declined the sampling request.",
      );
    const messages = samplingMessages(request.messages);
    const provider = pickSamplingModel(agentProvider, request.modelPreferences, request.models);
    // The server's tools are offered to the model; it runs them itself, so a call comes back to
    // it as `tool_use` and is never run here. `none` offers none; `required` asks the provider
    // to force a call (one that cannot treats it as `auto`).
    const offered: ToolDefinition[] =
      request.toolChoice?.mode === "none"
        ? []
        : (request.tools ?? []).map((remote) => ({
            name: remote.name,
            description:
              remote.description ?? `Tool "${remote.name}" of MCP server "${request.server}".`,
            inputSchema: remote.inputSchema as ToolDefinition["inputSchema"],
            safety: "side_effect",
            source: `mcp:${request.server}`,
          }));
    let text = "";
    const calls: ToolCall[] = [];
    for await (const event of provider.stream({
      system: request.systemPrompt ?? "",
      messages,
      tools: offered,
      ...(request.toolChoice?.mode === "required" && offered.length > 0
        ? { toolChoice: "required" as const }
        : {}),
      signal,
    })) {
      if (event.type === "text-delta") text += event.text;
      else if (event.type === "tool-call") calls.push(event.call);
    }
    const model = provider.model ?? provider.name;
    if (calls.length > 0)
      return {
        role: "assistant",
        content: calls.map((call) => ({
          type: "tool_use" as const,
          id: call.id,
          name: call.name,
          input: call.arguments as Record<string, unknown>,
        })),
        model,
        stopReason: "toolUse",
      };
    return { role: "assistant", content: { type: "text", text }, model, stopReason: "endTurn" };
  };
}

/**
 * A server's sampling messages as a conversation: text and other blocks as text, an assistant's
 * `tool_use` blocks as its tool calls, and a user's `tool_result` blocks as tool results (the
 * server ran those tools; their content is what the model reads).
 */
function samplingMessages(list: SamplingRequest["messages"]): Message[] {
  const messages: Message[] = [];
  for (const message of list) {
    const blocks = (Array.isArray(message.content) ? message.content : [message.content]) as Array<
      Record<string, unknown>
    >;
    const text = blocks
      .filter((block) => block.type !== "tool_use" && block.type !== "tool_result")
      .map(describeBlock)
      .join("\n");
    if (message.role === "assistant") {
      const toolCalls = blocks
        .filter((block) => block.type === "tool_use")
        .map((block) => ({
          id: String(block.id),
          name: String(block.name),
          arguments: (block.input ?? {}) as Record<string, unknown>,
        }));
      messages.push({ role: "assistant", text, toolCalls });
      continue;
    }
    for (const block of blocks.filter((item) => item.type === "tool_result")) {
      const content = (Array.isArray(block.content) ? block.content : []) as Array<
        Record<string, unknown>
      >;
      const resultText = content.map(describeBlock).join("\n");
      messages.push({
        role: "tool",
        callId: String(block.toolUseId),
        toolName: "",
        result: block.isError
          ? toolFailure("tool_error", resultText || "The tool failed.")
          : toolSuccess(resultText),
      });
    }
    if (text || !blocks.some((block) => block.type === "tool_result"))
      messages.push({ role: "user", content: text });
  }
  return messages;
}

/**
 * The model a sampling request runs on: the first of the server's hints (name substrings, in
 * the server's order) that one of the user's `sampling_models` contains, through the agent's
 * provider (`withModel`); otherwise the agent's own model. A server can only choose among the
 * models the user listed for it, never name one itself.
 */
export function pickSamplingModel(
  provider: Provider,
  preferences: SamplingRequest["modelPreferences"],
  models: readonly string[] | undefined,
): Provider {
  if (!models?.length || !provider.withModel) return provider;
  for (const hint of preferences?.hints ?? []) {
    const wanted = typeof hint?.name === "string" ? hint.name.toLowerCase() : "";
    if (!wanted) continue;
    const found = models.find((model) => model.toLowerCase().includes(wanted));
    if (found) return found === provider.model ? provider : provider.withModel(found);
  }
  return provider;
}

/** A block of a sampling message as the model reads it; one not well formed, said as such. */
function describeBlock(block: Record<string, unknown>): string {
  const type = block.type;
  const known = typeof type === "string" ? contentBlockOf({ ...block, type }) : undefined;
  return known
    ? describeContentBlock(known)
    : `[unsupported content of type "${String(type)}" in a sampling message]`;
}
