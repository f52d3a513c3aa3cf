import {
  CLAUDE_CODE_TOOL_NAMES,
  mapAllowedTool,
  splitAllowedTools,
} from "@pseudoclaude/compat-claude-code";

/** Says what was changed in an agent's tools: a code, a sentence, a severity, the field. */
export type ToolProblem = (
  code: "agent_invalid" | "agent_tool_unknown" | "agent_tools_narrowed",
  message: string,
  severity: "error" | "warning",
  /** The front-matter key the problem is about, as written. */
  field: string,
) => void;

/**
 * The tool patterns of an agent file's `tools` and `disallowedTools`, as Claude Code means
 * them; undefined for every tool of the parent (no `tools`, or `*` among them). Claude Code's
 * names are mapped to ours; entries without an equivalent are left out, each reported. A value
 * that is not a list of names gives no tools: whatever goes wrong, the agent gets fewer tools,
 * never more, because a file that meant to restrict must not run unrestricted.
 */
export function agentTools(
  fields: Record<string, unknown>,
  name: string,
  report: ToolProblem,
): string[] | undefined {
  const allowed = toolPatterns(fields.tools, "tools", name, report);
  const disallowedKey = "disallowedTools" in fields ? "disallowedTools" : "disallowed-tools";
  const disallowedValue = fields[disallowedKey];
  if (disallowedValue === undefined) return allowed;
  const disallowed = toolPatterns(disallowedValue, disallowedKey, name, report);
  // Unreadable disallowedTools: nothing can be trusted to be allowed.
  if (disallowed === undefined) return [];
  if (disallowed.length === 0) return allowed;
  let base = allowed;
  if (base === undefined) {
    // "Every tool but these" has no pattern here: the built-in tools stand for "every tool".
    base = Object.keys(CLAUDE_CODE_TOOL_NAMES);
    report(
      "agent_tools_narrowed",
      `Agent "${name}" has disallowedTools without tools: it gets the built-in tools (${base.join(", ")}) without the disallowed ones, and no MCP or other plugin tools.`,
      "warning",
      disallowedKey,
    );
  }
  return base.filter(
    (pattern) =>
      !disallowed.some((denied) => covers(denied, pattern, { name, key: disallowedKey, report })),
  );
}

/** Patterns of one field; undefined for `*` (every tool) or, for a value that is not a list, []. */
function toolPatterns(
  value: unknown,
  field: string,
  name: string,
  report: ToolProblem,
): string[] | undefined {
  if (value === undefined) return undefined;
  const entries = splitAllowedTools(value);
  if (!entries) {
    report(
      "agent_invalid",
      `"${field}" of agent "${name}" is not a list of tool names; the agent gets no tools.`,
      "error",
      field,
    );
    return field === "tools" ? [] : undefined;
  }
  if (entries.includes("*")) return field === "tools" ? undefined : ["*"];
  const patterns: string[] = [];
  for (const entry of entries) {
    const mapped = mapAllowedTool(entry);
    if ("pattern" in mapped) patterns.push(mapped.pattern);
    else if (field === "tools")
      report(
        "agent_tool_unknown",
        `Tool "${entry}" of agent "${name}" ${mapped.problem}; it is left out.`,
        "warning",
        field,
      );
  }
  return patterns;
}

/**
 * Whether a disallowed pattern takes `pattern` away. `*` takes everything; a tool name takes
 * every pattern of that tool; a pattern with an argument (`run_command(rm*)`) cannot be cut out
 * of a wider one, so it takes the whole tool, with a warning.
 */
function covers(
  denied: string,
  pattern: string,
  where: { name: string; key: string; report: ToolProblem },
): boolean {
  if (denied === "*") return true;
  const deniedTool = toolOf(denied);
  if (deniedTool !== toolOf(pattern)) return false;
  if (denied === deniedTool || denied === pattern) return true;
  where.report(
    "agent_tools_narrowed",
    `disallowedTools "${denied}" of agent "${where.name}" cannot be cut out of "${pattern}"; the agent gets no ${deniedTool}.`,
    "warning",
    where.key,
  );
  return true;
}

function toolOf(pattern: string): string {
  const open = pattern.indexOf("(");
  return open === -1 ? pattern : pattern.slice(0, open);
}
