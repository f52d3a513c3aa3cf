import type { ToolDefinition } from "@pseudoclaude/core";
import {
  hashedToolName,
  MAX_TOOL_NAME_LENGTH,
  sanitizeToolName,
  VALID_TOOL_NAME,
} from "@pseudoclaude/core/plugin";
import type OpenAI from "openai";
import type { WireFunction } from "./wire-tools.js";

/**
 * The longest namespace description. Every namespace's description is read on every request,
 * so it says what the namespace holds in a few tool names, not all of them.
 */
export const MAX_NAMESPACE_DESCRIPTION = 240;

/** Longest server or source name quoted in a description. */
const MAX_LABEL = 64;

/** A function the hosted search may load, with the definition it came from. */
export interface SearchableFunction {
  definition: ToolDefinition;
  fn: WireFunction;
}

interface Group {
  /** `server:<name>` or `source:<id>`: an MCP server and a source of the same name differ. */
  key: string;
  /** The server's name, else the source's id: what the namespace is named after. */
  base: string;
  kind: "server" | "source";
  members: SearchableFunction[];
}

/**
 * The searchable functions as OpenAI namespaces, one per MCP server (the definition's
 * `meta.server`) and one per other tool source, each function inside with `defer_loading`:
 * before a search the model reads each namespace's name and description only, which is what
 * OpenAI's guide recommends its models search. Namespaces go in name order and their functions
 * in wire-name order, so a tool being found (it stays where it is, deferred, and the API loads
 * it from the search output) changes nothing in the request's tools.
 *
 * `taken` are the request's other tool names: a namespace is never named like one of them.
 */
export function toNamespaces(
  functions: readonly SearchableFunction[],
  taken: ReadonlySet<string>,
): OpenAI.Responses.NamespaceTool[] {
  const groups = new Map<string, Group>();
  for (const member of functions) {
    const group = groupOf(member.definition);
    const existing = groups.get(group.key);
    if (existing) existing.members.push(member);
    else groups.set(group.key, { ...group, members: [member] });
  }
  const names = namespaceNames([...groups.values()], taken);
  return [...groups.values()]
    .map((group): OpenAI.Responses.NamespaceTool => {
      const members = [...group.members].sort((a, b) => compare(a.fn.name, b.fn.name));
      return {
        type: "namespace",
        name: names.get(group.key)!,
        description: describe(group, members),
        tools: members.map(({ fn }) => ({
          type: "function",
          name: fn.name,
          description: fn.description,
          parameters: fn.parameters,
          strict: fn.strict,
          defer_loading: true,
        })),
      };
    })
    .sort((a, b) => compare(a.name, b.name));
}

/** The MCP server a tool comes from, else its source. */
function groupOf(definition: ToolDefinition): Omit<Group, "members"> {
  const server = definition.meta?.server;
  if (typeof server === "string" && server !== "")
    return { key: `server:${server}`, base: server, kind: "server" };
  return { key: `source:${definition.source}`, base: definition.source, kind: "source" };
}

/**
 * A valid, unique name per group: the server's or source's own where the API takes it, else
 * that name with refused characters made `_`, else (taken, or empty) a hashed one. Groups whose
 * own name is valid choose first, so adding a server never renames one that was already right.
 */
function namespaceNames(groups: readonly Group[], taken: ReadonlySet<string>): Map<string, string> {
  const used = new Set(taken);
  const names = new Map<string, string>();
  const ordered = [...groups].sort(
    (a, b) =>
      Number(!VALID_TOOL_NAME.test(a.base)) - Number(!VALID_TOOL_NAME.test(b.base)) ||
      compare(a.key, b.key),
  );
  for (const group of ordered) {
    let name = sanitizeToolName(group.base).slice(0, MAX_TOOL_NAME_LENGTH);
    for (let salt = 0; name === "" || used.has(name); salt++)
      name = hashedToolName(group.base || "tools", `${salt}${group.key}`);
    used.add(name);
    names.set(group.key, name);
  }
  return names;
}

/**
 * `Tools of the MCP server "github": create_issue, search_repositories, … (26 tools)`: the
 * server's own tool names where it gave them (`meta.remote_name`), as many as fit in
 * {@link MAX_NAMESPACE_DESCRIPTION} characters.
 */
function describe(group: Group, members: readonly SearchableFunction[]): string {
  const label = JSON.stringify(
    group.base.length > MAX_LABEL ? `${group.base.slice(0, MAX_LABEL - 1)}…` : group.base,
  );
  const head =
    group.kind === "server" ? `Tools of the MCP server ${label}: ` : `Tools of ${label}: `;
  const tail = ` (${members.length} ${members.length === 1 ? "tool" : "tools"})`;
  const shown: string[] = [];
  for (const [at, member] of members.entries()) {
    const remote = member.definition.meta?.remote_name;
    const name = typeof remote === "string" && remote !== "" ? remote : member.definition.name;
    const rest = at + 1 < members.length ? ", …" : "";
    if (
      head.length + [...shown, name].join(", ").length + rest.length + tail.length >
      MAX_NAMESPACE_DESCRIPTION
    )
      break;
    shown.push(name);
  }
  const more = shown.length < members.length ? (shown.length > 0 ? ", …" : "…") : "";
  return `${head}${shown.join(", ")}${more}${tail}`;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
