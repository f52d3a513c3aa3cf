// The TypeScript declarations of the tools a code-mode program may call: the body of the
// ```ts block in the code tool's description. Tools sit where toolNamespaces puts them, in
// path order, each with a one-line summary, its input type and, when it declares one, its
// output type. Past a size, whole tools are left out and named, never cut mid-declaration.
import { convertSchema } from "./schema-to-type.js";
import { guestSegments, pathClaims, toolNamespaces } from "./tool-namespace.js";
import { docComment, FREE_FORM_OBJECT, oneLine, propertyKey } from "./type-text.js";

/** A tool as the declarations need it: its full name and schemas, as the registry has them. */
export interface DeclaredTool {
  /** The full name, e.g. `mcp__github__search_issues`. */
  name: string;
  description?: string | undefined;
  /** JSON Schema of the input object; absent means any object. */
  inputSchema?: unknown;
  /** JSON Schema of the structured result, when the tool declares one. */
  outputSchema?: unknown;
  /**
   * Source-specific facts, as a registry's ToolDefinition has them: the MCP plugin keeps a
   * server tool's output schema as `meta.output_schema`, read when `outputSchema` is absent.
   */
  meta?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * The output schema a tool declares: its own, or the MCP plugin's `meta.output_schema`. A tool
 * with one answers a program with its structured result, which this type describes.
 */
export function declaredOutputSchema(tool: DeclaredTool): unknown {
  const schema = tool.outputSchema ?? tool.meta?.output_schema;
  return schema === null ? undefined : schema;
}

/** Bounds of the rendered text. */
export interface RenderDeclarationsOptions {
  /** Roughly the most characters of the whole text (default 32,000, about 8,000 tokens). */
  maxChars?: number | undefined;
  /** Roughly the most characters one tool's types may take (default 4,000). */
  maxToolChars?: number | undefined;
  /**
   * Where each tool sits: toolNamespaces of every tool the program may call, as the sandbox
   * builds its `tools` object from. A tool's place can depend on tools that are callable but
   * not declared (a server named like a built-in), so passing the sandbox's mapping keeps the
   * two in agreement. Default: toolNamespaces of the tools declared.
   */
  namespaces?: Readonly<Record<string, string>> | undefined;
}

/** The declarations, and the tools left out of them. */
export interface ToolDeclarations {
  /** TypeScript, without the fence: `declare const tools: {...}` and the helpers. */
  text: string;
  /**
   * Full names of the tools not declared (in path order, then those with no path): past
   * `maxChars`, or with no place in `tools` (see toolNamespaces). Each is still reachable with
   * `callTool(name, input)`; the caller says so to the model.
   */
  omitted: string[];
}

/** Default bound of the whole text. */
export const DEFAULT_DECLARATIONS_CHARS = 32_000;
/** Default bound of one tool's types. */
export const DEFAULT_TOOL_CHARS = 4_000;
/** The least an output type is given when the input type took the tool's share. */
const MIN_OUTPUT_CHARS = 400;
/** Where a tool has a method, `new(...)` would be a construct signature: quoted, it is a name. */
const METHOD_KEYWORDS = new Set(["new"]);

const HEADER = [
  "/**",
  " * Tools as async functions. A tool with a declared result type resolves to that object;",
  " * the others resolve to `unknown`: a string when the tool answers with text, an object when",
  " * it answers with structured content.",
  " */",
  "declare const tools: {",
].join("\n");
const FOOTER = [
  "};",
  "/** Any tool by its full name, those not declared above too. */",
  "declare function callTool(name: string, input: object): Promise<unknown>;",
  "/** What a failed or refused call throws: `code` says why, `tool` is the tool's full name. */",
  "declare class ToolError extends Error { code: string; tool: string }",
].join("\n");

interface Placed {
  tool: DeclaredTool;
  segments: readonly string[];
}

/** The declarations of `tools`, within the bounds. */
export function renderToolDeclarations(
  tools: ReadonlyArray<DeclaredTool>,
  options: RenderDeclarationsOptions = {},
): ToolDeclarations {
  const maxChars = positive(options.maxChars, DEFAULT_DECLARATIONS_CHARS);
  const toolChars = positive(options.maxToolChars, DEFAULT_TOOL_CHARS);
  const byName = new Map<string, DeclaredTool>();
  for (const tool of tools)
    if (typeof tool?.name === "string" && !byName.has(tool.name)) byName.set(tool.name, tool);
  const paths = options.namespaces ?? toolNamespaces([...byName.keys()]);
  const entries = Object.entries(paths)
    .map(([path, name]) => ({ tool: byName.get(name), segments: guestSegments(path) }))
    .sort((a, b) => compareSegments(a.segments, b.segments));
  // A mapping from elsewhere is checked as toolNamespaces checks its own: entries that cannot
  // stand together (one path inside another tool) would make invalid declarations.
  const claim = pathClaims();
  const placed: Placed[] = [];
  const named = new Set<string>();
  for (const { tool, segments } of entries) {
    if (tool === undefined || named.has(tool.name) || !claim(segments, tool.name)) continue;
    named.add(tool.name);
    placed.push({ tool, segments });
  }
  const homeless = [...byName.keys()].filter((name) => !named.has(name));

  const lines: string[] = [];
  const omitted: string[] = [];
  let open: string[] = [];
  let size = HEADER.length + FOOTER.length + 2;
  for (const { tool, segments } of placed) {
    const namespaces = segments.slice(0, -1);
    const shared = commonPrefix(open, namespaces);
    const opening = openNamespaces(namespaces, shared);
    const text = declaration(tool, segments, toolChars);
    // Namespaces opened here are paid for with their closing lines; those closed on the way
    // were paid for when they opened.
    let cost = text.length + 1;
    for (const line of opening) cost += line.length + 1;
    for (let depth = shared + 1; depth <= namespaces.length; depth++) cost += 2 * depth + 3;
    if (size + cost > maxChars) {
      omitted.push(tool.name);
      continue;
    }
    size += cost;
    lines.push(...closeNamespaces(open, shared), ...opening, text);
    open = namespaces;
  }
  lines.push(...closeNamespaces(open, 0));
  omitted.push(...homeless);
  return { text: [HEADER, ...lines, FOOTER].join("\n"), omitted };
}

/** `key(input: In): Promise<Out>;` with its summary above, indented for its namespaces. */
function declaration(tool: DeclaredTool, segments: readonly string[], budget: number): string {
  const indent = "  ".repeat(segments.length);
  const last = segments[segments.length - 1]!;
  const key = METHOD_KEYWORDS.has(last) ? JSON.stringify(last) : propertyKey(last);
  const doc = docComment(summary(tool.description));
  const head = `${doc === "" ? "" : `${indent}${doc}\n`}${indent}${key}(input: `;
  const outputSchema = declaredOutputSchema(tool);
  const hasOutput = outputSchema !== undefined;
  // The input type is what a call needs right; with an output type too it takes three quarters.
  const share = budget - head.length;
  const input =
    tool.inputSchema === undefined
      ? { text: FREE_FORM_OBJECT }
      : convertSchema(tool.inputSchema, { indent, maxChars: hasOutput ? share * 0.75 : share });
  const output = hasOutput
    ? convertSchema(outputSchema, {
        indent,
        maxChars: Math.max(share - input.text.length, MIN_OUTPUT_CHARS),
      })
    : { text: "unknown" };
  return `${head}${input.text}): Promise<${output.text}>;`;
}

/** A tool's description for its doc comment: the first paragraph, on one line. */
function summary(description: unknown): string {
  if (typeof description !== "string") return "";
  const paragraphs = description.trim().split(/\n\s*\n/);
  return oneLine(paragraphs[0] ?? "");
}

function openNamespaces(namespaces: readonly string[], from: number): string[] {
  return namespaces
    .slice(from)
    .map((segment, index) => `${"  ".repeat(from + index + 1)}${propertyKey(segment)}: {`);
}

function closeNamespaces(open: readonly string[], keep: number): string[] {
  const lines: string[] = [];
  for (let depth = open.length; depth > keep; depth--) lines.push(`${"  ".repeat(depth)}};`);
  return lines;
}

function commonPrefix(a: readonly string[], b: readonly string[]): number {
  let shared = 0;
  while (shared < a.length && shared < b.length && a[shared] === b[shared]) shared += 1;
  return shared;
}

/** Path order: namespace by namespace, in code-unit order, so a namespace's tools stay together. */
function compareSegments(a: readonly string[], b: readonly string[]): number {
  for (let index = 0; index < Math.min(a.length, b.length); index++) {
    const x = a[index]!;
    const y = b[index]!;
    if (x !== y) return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

function positive(value: number | undefined, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : fallback;
}
