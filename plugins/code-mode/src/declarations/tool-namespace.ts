// Where each tool sits in the program's `tools` object. A server's tools are grouped under the
// server (`mcp__github__search_issues` is `tools.github.search_issues`), a dotted name nests
// (`docs.v2.search` is `tools.docs.v2.search`), and every other name is a property of
// `tools` as it is (`read_file`, `agent__reviewer`, `tool_search`, `mcp__list_resources`).
// The declarations and the sandbox's `tools` object are both built from this one mapping, so
// the names the model reads are the names that work.
import { IDENTIFIER } from "./type-text.js";

/**
 * An MCP tool's name as the MCP plugin makes it: `mcp__<server>__<tool>`. The server ends at
 * the first `__`: the name alone cannot tell more, so the tools of a server whose name holds
 * `__` are grouped under the part before it. Any character goes (`s`), line breaks too.
 */
const MCP_TOOL = /^mcp__(.+?)__(.+)$/s;

/** A guest path's segments, joined; a segment never contains it. */
export const PATH_SEPARATOR = ".";

/** A trie node of taken paths: a tool ends here, or namespaces continue from here. */
interface Slot {
  tool?: string;
  children: Map<string, Slot>;
}

/**
 * Guest paths (`"github.search_issues"`, `"read_file"`) of `names`, each mapped to the tool's
 * full name. The answer does not depend on the order of `names`.
 *
 * Where two names would want one path, or a tool would stand where a namespace is (a server
 * named like a built-in tool), shorter paths are given first and then names in sorted order:
 * `read_file` keeps `tools.read_file`, and the tools of a server called `read_file` sit under
 * their full names (`tools.mcp__read_file__list`). A name no path can be given to (it is
 * taken as well, or it would make a `__proto__` property) is left out: callers reach it with
 * `callTool(name, input)`.
 */
export function toolNamespaces(names: readonly string[]): Record<string, string> {
  const unique = [...new Set(names.filter((name) => typeof name === "string"))].sort(compare);
  const wanted = unique.map((name) => ({ name, path: naturalPath(name) }));
  wanted.sort((a, b) => a.path.length - b.path.length || compare(a.name, b.name));
  const claim = pathClaims();
  const placed = new Map<string, string[]>();
  const refused: string[] = [];
  for (const { name, path } of wanted) {
    if (claim(path, name)) placed.set(name, path);
    else refused.push(name);
  }
  // Second choice: the full name as a property of `tools`, once every first choice is in.
  for (const name of refused) if (claim([name], name)) placed.set(name, [name]);
  const namespaces: Record<string, string> = {};
  for (const name of unique) {
    const path = placed.get(name);
    if (path !== undefined) namespaces[path.join(PATH_SEPARATOR)] = name;
  }
  return namespaces;
}

/**
 * The expression that reaches `path` in the program, `tools.github.search_issues`, with
 * brackets for segments that are not identifiers: `tools["my-server"]["get-env"]`.
 */
export function guestAccessor(path: string, root: string = "tools"): string {
  return `${root}${guestSegments(path).map(memberAccess).join("")}`;
}

/** The segments of a guest path: the namespaces it goes through, then the tool. */
export function guestSegments(path: string): string[] {
  return path.split(PATH_SEPARATOR);
}

function memberAccess(segment: string): string {
  return IDENTIFIER.test(segment) ? `.${segment}` : `[${JSON.stringify(segment)}]`;
}

/** Where a tool would sit if nothing else wanted the place. */
function naturalPath(name: string): string[] {
  const mcp = MCP_TOOL.exec(name);
  return mcp !== null ? [mcp[1]!, mcp[2]!] : name.split(PATH_SEPARATOR);
}

/**
 * Segments a path may have: not empty, no separator, and no `__proto__`, which an object
 * literal or a careless assignment would take as the prototype instead of a property.
 */
function validSegments(path: readonly string[]): boolean {
  return (
    path.length > 0 &&
    path.every(
      (segment) => segment !== "" && segment !== "__proto__" && !segment.includes(PATH_SEPARATOR),
    )
  );
}

/**
 * A fresh set of taken paths, and the function that takes one: `path` is given to `name` when
 * its segments are valid, no tool holds it or a prefix of it, and no namespace is there. For
 * anyone handed a mapping it did not make, to use only the entries that can stand together.
 */
export function pathClaims(): (path: readonly string[], name: string) => boolean {
  const root: Slot = { children: new Map() };
  return (path, name) => {
    if (!validSegments(path)) return false;
    // Looked at before anything is made, so a refused path leaves no empty namespace behind.
    let slot: Slot | undefined = root;
    for (const segment of path) {
      if (slot.tool !== undefined) return false;
      slot = slot.children.get(segment);
      if (slot === undefined) break;
    }
    if (slot !== undefined) return false;
    let at = root;
    for (const segment of path) {
      let next = at.children.get(segment);
      if (next === undefined) {
        next = { children: new Map() };
        at.children.set(segment, next);
      }
      at = next;
    }
    at.tool = name;
    return true;
  };
}

/** Code-unit order: the same in every locale. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
