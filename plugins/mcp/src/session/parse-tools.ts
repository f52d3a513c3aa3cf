import { specTypeSchemas, type Tool } from "@modelcontextprotocol/client";
import type { RemoteTool, ToolsPage } from "../mcp-session.js";

/** A listed tool; `inputSchema` is absent when the server gave none or an empty one. */
export type ListedTool = Omit<Tool, "inputSchema"> & { inputSchema?: Tool["inputSchema"] };

/** The spec's own schema of a tool, from the client that speaks it (a Standard Schema). */
const TOOL = specTypeSchemas.Tool["~standard"];

/** The schema a tool without one is checked with (the registry gives it its own later). */
const NO_ARGUMENTS = { type: "object" } as const;

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
  for (const entry of entries) {
    const schema = (entry as { inputSchema?: unknown } | null)?.inputSchema;
    const noSchema =
      schema === undefined ||
      (schema !== null && typeof schema === "object" && Object.keys(schema).length === 0);
    const checked = TOOL.validate(
      noSchema && entry !== null && typeof entry === "object"
        ? { ...entry, inputSchema: NO_ARGUMENTS }
        : entry,
    );
    if (!checked.issues) {
      if (!noSchema) tools.push(checked.value);
      else {
        const { inputSchema: _none, ...tool } = checked.value;
        tools.push(tool);
      }
      continue;
    }
    const name = (entry as { name?: unknown } | null)?.name;
    const issue = checked.issues[0];
    invalid.push({
      ...(typeof name === "string" ? { name } : {}),
      message: issue
        ? `${issue.path?.map((key) => String(typeof key === "object" ? key.key : key)).join(".") || "(tool)"}: ${issue.message}`
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
