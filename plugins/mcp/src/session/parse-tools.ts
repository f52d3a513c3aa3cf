import { specTypeSchemas, type Tool } from "@modelcontextprotocol/client";
import { z } from "zod";
import type { RemoteTool, ToolsPage } from "../mcp-session.js";

/** A listed tool; `inputSchema` is absent when the server gave none or an empty one. */
export type ListedTool = Omit<Tool, "inputSchema"> & { inputSchema?: Tool["inputSchema"] };

/**
 * The spec's own schema of a tool, from the client that speaks it. The client publishes it as a
 * Standard Schema and builds it with zod; zod's own API is used for its per-parse options
 * (PARSE_ONCE), so a schema that is not zod's fails here, at load, not per tool.
 */
const ToolSchema = zodObject(specTypeSchemas.Tool);
const toolWithoutSchema = ToolSchema.omit({ inputSchema: true });

/**
 * Without zod's generated fast path: a tool is parsed once per listing, and the generated
 * parser is code V8 compiles and keeps. Measured: 30 idle servers of 22 tools held 1.65 MB
 * instead of 1.69-1.70; 10,000 tools from one server took 835-932 ms until callable against
 * 809-858 with it.
 */
const PARSE_ONCE = { jitless: true } as const;

/**
 * From this many tools in one listing the generated parser pays for itself: it costs ~2-3 ms to
 * make and compile, once per process, and parses a tool ~5-7 µs faster (10,000 tools: 62-87 ms
 * against 101-144).
 */
const GENERATED_PARSER_FROM = 500;

/**
 * Check each listed tool on its own; anything invalid is skipped with its reason. A missing or
 * empty `inputSchema` (`{}`) is not an error: many servers send one for tools without
 * arguments, and the registry gives every tool its object schema where tools enter it.
 */
export function parseTools(entries: unknown[]): {
  tools: ListedTool[];
  invalid: Array<{ name?: string; message: string }>;
} {
  const tools: ListedTool[] = [];
  const invalid: Array<{ name?: string; message: string }> = [];
  const options = entries.length >= GENERATED_PARSER_FROM ? undefined : PARSE_ONCE;
  for (const entry of entries) {
    const schema = (entry as { inputSchema?: unknown } | null)?.inputSchema;
    const noSchema =
      schema === undefined ||
      (schema !== null && typeof schema === "object" && Object.keys(schema).length === 0);
    const parsed = noSchema
      ? toolWithoutSchema.safeParse(entry, options)
      : ToolSchema.safeParse(entry, options);
    if (parsed.success) {
      tools.push(parsed.data);
      continue;
    }
    const name = (entry as { name?: unknown } | null)?.name;
    const issue = parsed.error.issues[0];
    invalid.push({
      ...(typeof name === "string" ? { name } : {}),
      message: issue
        ? `${issue.path.join(".") || "(tool)"}: ${issue.message}`
        : "invalid tool definition",
    });
  }
  return { tools, invalid };
}

/** One `tools/list` page as our sessions hand it on, in either era: the valid tools, the rest named. */
export function toToolsPage(result: {
  tools?: unknown;
  nextCursor?: string | undefined;
}): ToolsPage {
  const { tools, invalid } = parseTools(Array.isArray(result.tools) ? result.tools : []);
  const page: ToolsPage = {
    tools: tools.map((tool) => {
      const remote: RemoteTool = { name: tool.name };
      if (tool.title) remote.title = tool.title;
      if (tool.description) remote.description = tool.description;
      if (tool.inputSchema) remote.inputSchema = tool.inputSchema as Record<string, unknown>;
      if (tool.outputSchema) remote.outputSchema = tool.outputSchema as Record<string, unknown>;
      if (tool.annotations) remote.annotations = { ...tool.annotations };
      if (tool._meta) remote.meta = tool._meta;
      if ((tool as { icons?: unknown }).icons) remote.icons = (tool as { icons?: unknown }).icons;
      const taskSupport = tool.execution?.taskSupport;
      if (taskSupport === "optional" || taskSupport === "required")
        remote.taskSupport = taskSupport;
      return remote;
    }),
  };
  if (invalid.length > 0) page.invalid = invalid;
  if (result.nextCursor !== undefined) page.nextCursor = result.nextCursor;
  return page;
}

type ToolZod = z.ZodType<ListedTool> & {
  omit(mask: { inputSchema: true }): z.ZodType<ListedTool>;
};

function zodObject(schema: unknown): ToolZod {
  if (!(schema instanceof Object) || !("_zod" in schema) || !("omit" in schema))
    throw new Error("@modelcontextprotocol/client's Tool schema is no longer a zod object");
  // Checked just above: zod's object, typed by the client only as a Standard Schema.
  return schema as unknown as ToolZod;
}
