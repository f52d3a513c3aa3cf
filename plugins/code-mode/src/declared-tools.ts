import type { PolicyEngine, ToolDefinition } from "@pseudoclaude/core";

/**
 * The tools the code tool's description declares: those the model is sent up front (not
 * deferred to tool search) and the policy offers, without tools that make inner calls (the code
 * tool itself). A program may still call any other tool by name; the policy decides each call.
 */
export function declaredTools(
  definitions: readonly ToolDefinition[],
  policy: Pick<PolicyEngine, "isOffered">,
): ToolDefinition[] {
  return definitions.filter(
    (tool) => !tool.innerCalls && tool.deferLoading !== true && policy.isOffered(tool),
  );
}

/**
 * Below this many tools a program rarely replaces enough round trips to pay for its own
 * description on every request; `auto` offers the code tool from here on.
 */
export const AUTO_MIN_TOOLS = 10;

/** Whether `auto` offers the code tool for these declared tools. */
export function wantsCodeMode(tools: readonly ToolDefinition[]): boolean {
  return tools.length >= AUTO_MIN_TOOLS;
}
