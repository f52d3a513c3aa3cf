/** How the CLI writes things for a person to read: shortened text, tables, and one line per event. */
import {
  type AgentEvents,
  type ContentBlock,
  type SubAgentTag,
  type ToolTaskUpdate,
} from "@pseudoclaude/core";
import { describeContentBlock, type ToolCall } from "@pseudoclaude/core/plugin";

/** Shorten to `max` characters with an ellipsis, keeping lines readable. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

/** Arguments as one compact line; raw strings (unparsed JSON) are shown as given. */
export function compactArgs(args: unknown, max = 200): string {
  if (typeof args === "string") return truncate(args, max);
  let text: string;
  try {
    text = JSON.stringify(args) ?? String(args);
  } catch {
    text = String(args);
  }
  return truncate(text, max);
}

/** Content as text for a terminal: text blocks as they are, other kinds described. */
export function contentText(content: readonly ContentBlock[]): string {
  return content.map((block) => describeContentBlock(block)).join("\n");
}

/** The first line, for one-line summaries. */
export function firstLine(text: string): string {
  return text.split("\n", 1)[0] ?? "";
}

/** Left-aligned columns; the last column is not padded. */
export function table(header: string[], rows: string[][], width?: number): string[] {
  const all = [header, ...rows];
  const widths = header.map((_, column) =>
    Math.max(...all.map((row) => (row[column] ?? "").length)),
  );
  // On a terminal the last column gets what the others leave of its width, cut between words,
  // so no line wraps; when too little is left it stays whole (the terminal wraps it).
  const before = widths.slice(0, -1).reduce((sum, each) => sum + each + 2, 0);
  const last = width === undefined ? undefined : width - before - 1;
  const fits = last !== undefined && last >= 12 ? last : undefined;
  return all.map((row) =>
    row
      .map((cell, column) =>
        column === row.length - 1
          ? fits === undefined
            ? cell
            : fitWords(cell, fits)
          : cell.padEnd(widths[column]!),
      )
      .join("  ")
      .trimEnd(),
  );
}

/** `text` in at most `max` characters, cut after a whole word (`…` marks the cut). */
export function fitWords(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** What a compaction did, in one line: `Compacted the conversation (…): ~9,800 -> ~2,100 tokens of 12,000.` */
export function compactionText(event: AgentEvents["compaction"][0]): string {
  const what = [
    event.stubbedResults > 0
      ? `${event.stubbedResults} old tool result${event.stubbedResults === 1 ? "" : "s"} shortened`
      : "",
    event.summarizedMessages > 0 ? `${event.summarizedMessages} older messages summarised` : "",
  ]
    .filter(Boolean)
    .join(", ");
  const of = event.window !== undefined ? ` of ${event.window.toLocaleString("en")}` : "";
  return `Compacted the conversation (${what || "nothing to shorten"}): ~${event.tokensBefore.toLocaleString("en")} -> ~${event.tokensAfter.toLocaleString("en")} tokens${of}. The full transcript stays in the session.`;
}

/** `  [reviewer] ` before a sub-agent's lines, indented by its depth; nothing for the agent's own. */
export function subAgentPrefix(via: SubAgentTag | undefined): string {
  return via ? `${"  ".repeat(via.depth)}[${via.agent}] ` : "";
}

/** A call's indent: its sub-agent's, and one step more for a call a program made. */
export function callPrefix(via: SubAgentTag | undefined, call: ToolCall): string {
  return `${subAgentPrefix(via)}${call.parentId ? "    " : ""}`;
}

/** Lines of a program shown before its calls; a long one is cut with a count of the rest. */
const PROGRAM_LINES = 30;

/** A code-mode program's lines under its call, each marked so they read as its source. */
export function programLines(call: ToolCall, prefix: string): string[] {
  const code = (call.arguments as { code?: unknown } | undefined)?.code;
  if (typeof code !== "string") return [];
  const lines = code.replace(/\s+$/, "").split("\n");
  const shown = lines.slice(0, PROGRAM_LINES).map((line) => `${prefix}  | ${line}`);
  if (lines.length > PROGRAM_LINES)
    shown.push(`${prefix}  | … ${lines.length - PROGRAM_LINES} more lines`);
  return shown;
}

/** Found tools named in a search's line before the rest are only counted. */
const NAMED_FOUND = 8;

/**
 * `searched \`calendar\` → 3 found: a, b, c` — one tool search (ours, or the provider's own),
 * in every view; `found` are the tools it loaded, new ones only.
 */
export function toolSearchText(event: AgentEvents["tool-search"][0]): string {
  const who = event.engine === "provider" ? "the provider searched" : "searched";
  const { found } = event;
  const query = truncate(firstLine(event.query), 80);
  if (found.length === 0) return `${who} \`${query}\` → no new tools found`;
  const named = found.slice(0, NAMED_FOUND).join(", ");
  const more = found.length > NAMED_FOUND ? ` and ${found.length - NAMED_FOUND} more` : "";
  return `${who} \`${query}\` → ${found.length} found: ${named}${more}`;
}

/** `task 1a2b3c4d working: step 2 of 5` — one line of a call's task, in every view. */
export function taskText(task: ToolTaskUpdate): string {
  const message = task.statusMessage ? `: ${truncate(firstLine(task.statusMessage), 120)}` : "";
  return `task ${task.taskId.slice(0, 12)} ${task.status}${message}`;
}
