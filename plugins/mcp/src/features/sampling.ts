import { ConfigError, type ToolDefinition, UsageError } from "@pseudoclaude/core";
import {
  type AgentCallbacks,
  describeContentBlock,
  type ProviderRef,
} from "@pseudoclaude/core/plugin";
import type { Message } from "@pseudoclaude/core/provider";
import type { McpConfigErrorCode, McpUsageErrorCode } from "../mcp-errors.js";
import type { SamplingRequest, SamplingResponse } from "../session/mcp-session.js";

/**
 * Sampling (a server asking our model for a completion) is declared only for servers that
 * enable it, and each request needs the person's approval, then goes through the agent's
 * provider with no tools.
 */
export function createSampler(callbacks: AgentCallbacks, providerRef: ProviderRef) {
  return async (request: SamplingRequest, signal: AbortSignal): Promise<SamplingResponse> => {
    const provider = providerRef.provider;
    if (!provider)
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
    const messages: Message[] = request.messages.map((message) => {
      const text = (Array.isArray(message.content) ? message.content : [message.content])
        .map((block) => describeContentBlock(block as never))
        .join("\n");
      return message.role === "assistant"
        ? { role: "assistant", text, toolCalls: [] }
        : { role: "user", content: text };
    });
    let text = "";
    for await (const event of provider.stream({
      system: request.systemPrompt ?? "",
      messages,
      tools: [],
      signal,
    })) {
      if (event.type === "text-delta") text += event.text;
    }
    return {
      role: "assistant",
      content: { type: "text", text },
      model: provider.model ?? provider.name,
      stopReason: "endTurn",
    };
  };
}
