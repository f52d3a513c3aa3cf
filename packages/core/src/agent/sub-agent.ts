import type { Provider, ProviderUsage } from "../contracts/provider.js";
import type { Tool } from "../contracts/tool.js";
import { type ToolResult, toolFailure, toolSuccess } from "../contracts/tool-result.js";
import { errorMessage, PseudoClaudeError } from "../errors.js";
import type { OutputSchema } from "../output/output-schema.js";
import { definePlugin, type Plugin } from "../plugin/plugin.js";
import { StaticToolSource } from "../tools/static-tool-source.js";
import { hashedToolName, sanitizeToolName, VALID_TOOL_NAME } from "../tools/tool-name.js";

/** Sub-agents calling sub-agents stop here by default. */
export const DEFAULT_SUB_AGENT_DEPTH = 3;

/** A focused agent the parent delegates to, as one of its tools. */
export interface SubAgentSpec {
  /** Its name: the tool is `agent__<name>` (made valid for every model API). */
  name: string;
  /** What the parent's model reads to decide when to delegate. */
  description: string;
  /** The sub-agent's system prompt. */
  instructions: string;
  /** Tool name patterns it may use (policy rule syntax: `read_file`, `mcp__docs__*`); default all. */
  tools?: readonly string[] | undefined;
  /** Its own model; default the parent's. */
  provider?: Provider | undefined;
  /**
   * Another model of the parent's provider (`Provider.withModel`), when no `provider` is given.
   * A provider that has one model only runs the parent's, and the result's metadata says so.
   * A function picks the model when the sub-agent starts, from the parent's provider
   * (undefined: the parent's model), for a choice that depends on the provider, such as an
   * agent file's `model: sonnet`: a Claude model on Claude, the parent's model elsewhere.
   */
  model?: (string | ((parent: Provider) => string | undefined)) | undefined;
  maxTurns?: number | undefined;
  /** A typed final answer: it becomes the tool result's `structured` value. */
  output?: OutputSchema<unknown> | undefined;
  /** How deep sub-agents may nest (the parent is 0). Default 3. */
  maxDepth?: number | undefined;
  /** The call's timeout: a sub-agent works longer than a tool. Default 30 minutes. */
  timeoutMs?: number | undefined;
}

/** What the sub-agent behind a call spent, as its tool's result reports it. */
export function subAgentUsage(result: ToolResult): ProviderUsage | undefined {
  const usage = result.metadata[USAGE_KEY];
  if (!usage || typeof usage !== "object") return undefined;
  const spent: ProviderUsage = {};
  for (const [key, value] of Object.entries(usage))
    if (USAGE_FIELDS.has(key as keyof ProviderUsage) && typeof value === "number")
      spent[key as keyof ProviderUsage] = value;
  return spent;
}

/** The result metadata key the sub-agent tool reports its child's usage under. */
const USAGE_KEY = "usage";

const USAGE_FIELDS = new Set<keyof ProviderUsage>([
  "inputTokens",
  "outputTokens",
  "cacheReadTokens",
  "cacheWriteTokens",
]);

/** The tool name of a sub-agent: `agent__<name>`, by the shared naming rule. */
export function subAgentToolName(name: string): string {
  const wanted = `agent__${sanitizeToolName(name)}`;
  return VALID_TOOL_NAME.test(wanted) ? wanted : hashedToolName(wanted, name);
}

/**
 * A sub-agent as a plugin: `createAgent({ plugins: [subAgent({ name, description,
 * instructions, tools })] })`. Calling its tool runs a child of whichever agent called it
 * (`Agent.fork`): its own conversation, the instructions, only the caller's tools that match
 * `tools` and the caller's policy over them. The result is the child's final answer; its usage
 * is added to the caller's run; cancelling the call cancels the child and its calls.
 */
export function subAgent(spec: SubAgentSpec): Plugin {
  const name = subAgentToolName(spec.name);
  const maxDepth = spec.maxDepth ?? DEFAULT_SUB_AGENT_DEPTH;
  const tool: Tool = {
    definition: {
      name,
      description: spec.description,
      inputSchema: {
        type: "object",
        properties: {
          prompt: {
            type: "string",
            description: "The task for the sub-agent, with everything it needs to know.",
          },
        },
        required: ["prompt"],
        additionalProperties: false,
      },
      // What it may do is decided call by call by the policy over its own tools.
      safety: "read_only",
      source: `subagent:${spec.name}`,
      timeoutMs: spec.timeoutMs ?? 30 * 60_000,
      meta: { sub_agent: spec.name },
      subAgent: true,
    },
    async execute(args, context) {
      const parent = context.fork;
      if (!parent)
        return toolFailure("tool_error", `Sub-agent "${spec.name}" can only run inside an agent.`);
      if (parent.depth + 1 > maxDepth)
        return toolFailure(
          "depth_limit",
          `Sub-agent "${spec.name}" was not started: agents may nest ${maxDepth} deep, and this call is at depth ${parent.depth + 1}. Do the task yourself.`,
        );
      const model =
        typeof spec.model === "function"
          ? parent.provider && spec.model(parent.provider)
          : spec.model;
      const provider =
        spec.provider ?? (model !== undefined ? parent.provider?.withModel?.(model) : undefined);
      const child = parent.start({
        name: spec.name,
        instructions: spec.instructions,
        parentCallId: context.callId,
        ...(spec.tools ? { tools: spec.tools } : {}),
        ...(provider ? { provider } : {}),
        ...(spec.maxTurns !== undefined ? { maxTurns: spec.maxTurns } : {}),
      });
      const prompt = String((args as { prompt?: unknown }).prompt ?? "");
      try {
        const result = spec.output
          ? await child.run(prompt, { signal: context.signal, output: spec.output })
          : await child.run(prompt, { signal: context.signal });
        const metadata: Record<string, unknown> = {
          sub_agent: spec.name,
          depth: child.depth,
          ...(child.provider?.model ? { model: child.provider.model } : {}),
          // Asked for a model the parent's provider cannot switch to: said, not hidden.
          ...(model !== undefined && !provider && !spec.provider ? { model_inherited: model } : {}),
          turns: result.turns,
          stop_reason: result.stopReason,
          tool_calls: result.toolCalls.length,
          [USAGE_KEY]: result.usage,
        };
        if (result.stopReason !== "end_turn")
          return toolFailure(
            result.stopReason === "aborted" ? "cancelled" : "tool_error",
            `Sub-agent "${spec.name}" stopped (${result.stopReason}) without a final answer.${result.text ? ` Its last text: ${result.text}` : ""}`,
            { metadata },
          );
        return toolSuccess(result.text || "(no text)", {
          metadata,
          ...(result.output !== undefined ? { structured: result.output } : {}),
        });
      } catch (error) {
        return toolFailure(
          "tool_error",
          `Sub-agent "${spec.name}" failed: ${PseudoClaudeError.is(error) ? `${error.code}: ` : ""}${errorMessage(error)}`,
        );
      } finally {
        await child.close();
      }
    },
  };
  return definePlugin({
    name: `subagent-${sanitizeToolName(spec.name)
      .toLowerCase()
      .replace(/^[^a-z0-9]+/, "x")}`,
    register(context) {
      context.addToolSource(new StaticToolSource(`subagent:${spec.name}`, [tool]));
    },
  });
}
