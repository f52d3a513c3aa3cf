import { FROM_CLAUDE_CODE_NAMES } from "./tool-names.js";

/** One entry of a Skill's `allowed-tools` or an agent file's `tools`, and what it means here. */
export type AllowedToolMapping =
  | { entry: string; pattern: string }
  | { entry: string; problem: string };

/**
 * Claude Code's tool names and ours (`FROM_CLAUDE_CODE_NAMES`). An argument part carries over,
 * with Claude Code's prefix marker `:*` written as our `*` (`Bash(git log:*)` is
 * `run_command(git log*)`).
 */
const EQUIVALENTS = FROM_CLAUDE_CODE_NAMES;

/** Claude Code tools with nothing equivalent here: named so the diagnostic can say so. */
const WITHOUT_EQUIVALENT = new Set([
  "WebFetch",
  "WebSearch",
  "Task",
  "Agent",
  "TodoWrite",
  "TodoRead",
  "NotebookEdit",
  "NotebookRead",
  "BashOutput",
  "KillShell",
  "KillBash",
  "SlashCommand",
  "Skill",
  "ExitPlanMode",
]);

/**
 * The entries of an `allowed-tools` (Skills) or `tools` (agent files) value, as Claude Code
 * reads both: a list of strings, or one string separated by spaces or commas (not inside
 * parentheses, so `Bash(git log:*)` stays whole). Undefined when the value is neither.
 */
export function splitAllowedTools(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) {
    if (!value.every((item) => typeof item === "string")) return undefined;
    return value.map((item) => item.trim()).filter((item) => item !== "");
  }
  if (typeof value !== "string") return undefined;
  const entries: string[] = [];
  let current = "";
  let depth = 0;
  for (const char of value) {
    if (char === "(") depth += 1;
    if (char === ")") depth = Math.max(0, depth - 1);
    if (depth === 0 && (char === "," || /\s/.test(char))) {
      if (current !== "") entries.push(current);
      current = "";
      continue;
    }
    current += char;
  }
  if (current !== "") entries.push(current);
  return entries;
}

const NAME_AND_ARGUMENT = /^([^()\s]+)(?:\((.*)\))?$/s;

/** Map one entry to a permission pattern of ours, or say why it maps to nothing. */
export function mapAllowedTool(entry: string): AllowedToolMapping {
  const match = NAME_AND_ARGUMENT.exec(entry);
  if (!match) return { entry, problem: "is not a tool name or TOOL(ARGUMENT) pattern" };
  const name = match[1] as string;
  const argument = match[2]?.trim();
  if (argument === "") return { entry, problem: "has an empty argument pattern" };
  if (WITHOUT_EQUIVALENT.has(name)) {
    return { entry, problem: `names Claude Code's ${name}, which has no equivalent here` };
  }
  const ours = EQUIVALENTS[name];
  if (ours) {
    const carried = argument === undefined ? "" : `(${argument.replace(/:\*$/, "*")})`;
    return { entry, pattern: `${ours}${carried}` };
  }
  if (/^[A-Z]/.test(name)) {
    return { entry, problem: `names "${name}", which is no tool here (names are lowercase)` };
  }
  return { entry, pattern: argument === undefined ? name : `${name}(${argument})` };
}
