/**
 * Attribute names: the OpenTelemetry GenAI semantic conventions' (development status, spelled
 * out here rather than imported, because their package's incubating entry point is large and
 * renames between releases), then ours under `pseudoclaude.`. docs/tracing.md lists them all.
 */
export const GEN_AI_ATTRIBUTES = {
  operation: "gen_ai.operation.name",
  provider: "gen_ai.provider.name",
  requestModel: "gen_ai.request.model",
  stream: "gen_ai.request.stream",
  outputType: "gen_ai.output.type",
  finishReasons: "gen_ai.response.finish_reasons",
  inputTokens: "gen_ai.usage.input_tokens",
  outputTokens: "gen_ai.usage.output_tokens",
  cacheReadTokens: "gen_ai.usage.cache_read.input_tokens",
  cacheWriteTokens: "gen_ai.usage.cache_creation.input_tokens",
  agentName: "gen_ai.agent.name",
  conversationId: "gen_ai.conversation.id",
  toolName: "gen_ai.tool.name",
  toolCallId: "gen_ai.tool.call.id",
  toolDescription: "gen_ai.tool.description",
  toolArguments: "gen_ai.tool.call.arguments",
  toolResult: "gen_ai.tool.call.result",
  systemInstructions: "gen_ai.system_instructions",
  inputMessages: "gen_ai.input.messages",
  outputMessages: "gen_ai.output.messages",
  errorType: "error.type",
} as const;

export const PSEUDOCLAUDE_ATTRIBUTES = {
  depth: "pseudoclaude.agent.depth",
  turn: "pseudoclaude.turn",
  turns: "pseudoclaude.run.turns",
  stopReason: "pseudoclaude.run.stop_reason",
  toolCalls: "pseudoclaude.run.tool_calls",
  source: "pseudoclaude.tool.source",
  safety: "pseudoclaude.tool.safety",
  verdict: "pseudoclaude.policy.verdict",
  basis: "pseudoclaude.policy.basis",
  rule: "pseudoclaude.policy.rule",
  approval: "pseudoclaude.approval",
  timeoutMs: "pseudoclaude.tool.timeout_ms",
  timeoutSource: "pseudoclaude.tool.timeout_source",
  hooks: "pseudoclaude.hooks",
  parentCallId: "pseudoclaude.sub_agent.parent_call_id",
} as const;
