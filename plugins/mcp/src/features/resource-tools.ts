import {
  type ContentBlock,
  defineTool,
  type Tool,
  type ToolResult,
  toolFailure,
  toolSuccess,
} from "@pseudoclaude/core";
import { errorMessage, StaticToolSource, zodSchema } from "@pseudoclaude/core/plugin";
import type { McpManager } from "../mcp-manager.js";

export const RESOURCE_SOURCE_ID = "mcp";

/** The tools' arguments. */
const inputs = zodSchema((z) => {
  const server = z.string().describe("MCP server name as configured");
  return {
    listingArgs: z.object({ server: server.optional(), cursor: z.string().optional() }),
    resourceArgs: z.object({ server, uri: z.string() }),
    templateArgs: z.object({
      server,
      uri_template: z.string().describe("A URI template as mcp__list_resource_templates lists it"),
      arguments: z
        .record(z.string(), z.string())
        .describe("A value for each of the template's variables"),
    }),
    promptArgs: z.object({
      server,
      name: z.string(),
      arguments: z.record(z.string(), z.string()).optional(),
    }),
  };
});

/**
 * Resources and prompts reach the model through six generic tools per agent (not six per
 * server), so a hundred servers do not add six hundred tools. Offered only while some
 * connected server has the capability.
 */
export function resourceTools(manager: McpManager): Tool[] {
  const { listingArgs, resourceArgs, templateArgs, promptArgs } = inputs();
  const base = { safety: "read_only" as const, source: RESOURCE_SOURCE_ID };
  return [
    defineTool({
      ...base,
      name: "mcp__list_resources",
      description:
        "List resources that connected MCP servers expose (files, records, documents). Optionally for one server.",
      input: listingArgs,
      execute: async ({ server: name, cursor }, context) => {
        const listing = await manager.listResources(name, cursor, context.signal);
        return toolSuccess(JSON.stringify(listing, null, 2), { structured: listing });
      },
    }),
    defineTool({
      ...base,
      name: "mcp__read_resource",
      description:
        "Read one resource of an MCP server by its URI (as listed by mcp__list_resources).",
      input: resourceArgs,
      execute: ({ server: name, uri }, context) => readResource(manager, name, uri, context.signal),
    }),
    defineTool({
      ...base,
      name: "mcp__list_resource_templates",
      description:
        "List resource templates (URI templates with variables) that connected MCP servers expose. Optionally for one server.",
      input: listingArgs,
      execute: async ({ server: name, cursor }, context) => {
        const listing = await manager.listResourceTemplates(name, cursor, context.signal);
        return toolSuccess(JSON.stringify(listing, null, 2), { structured: listing });
      },
    }),
    defineTool({
      ...base,
      name: "mcp__read_resource_template",
      description:
        "Read a resource of an MCP server by filling one of its resource templates (as listed by mcp__list_resource_templates) with a value for each variable.",
      input: templateArgs,
      execute: async ({ server: name, uri_template: template, arguments: args }, context) => {
        let uri: string;
        try {
          // The SDK's RFC 6570 expander, loaded when a template is filled: importing the plugin
          // must not load the SDK.
          const { UriTemplate } = await import("@modelcontextprotocol/client");
          uri = new UriTemplate(template).expand(args);
        } catch (error) {
          return toolFailure(
            "invalid_arguments",
            `The URI template ${template} cannot be filled: ${errorMessage(error)}`,
          );
        }
        return readResource(manager, name, uri, context.signal);
      },
    }),
    defineTool({
      ...base,
      name: "mcp__list_prompts",
      description:
        "List prompt templates that connected MCP servers offer. Optionally for one server.",
      input: listingArgs,
      execute: async ({ server: name, cursor }, context) => {
        const listing = await manager.listPrompts(name, cursor, context.signal);
        return toolSuccess(JSON.stringify(listing, null, 2), { structured: listing });
      },
    }),
    defineTool({
      ...base,
      name: "mcp__get_prompt",
      description: "Get a prompt template of an MCP server, filled with arguments.",
      input: promptArgs,
      execute: async ({ server: name, name: prompt, arguments: args }, context) => {
        try {
          const result = await manager.getPrompt(name, prompt, args ?? {}, context.signal);
          return toolSuccess(JSON.stringify(result, null, 2), {
            structured: result,
            metadata: { server: name },
          });
        } catch (error) {
          return toolFailure(
            "mcp_call_error",
            `Prompt ${prompt} of MCP server "${name}" failed: ${errorMessage(error)}`,
            {
              metadata: { server: name },
            },
          );
        }
      },
    }),
  ];
}

/** One resource read, as content blocks; a failure says which URI of which server. */
async function readResource(
  manager: McpManager,
  name: string,
  uri: string,
  signal: AbortSignal,
): Promise<ToolResult> {
  try {
    const result = await manager.readResource(name, uri, signal);
    const content: ContentBlock[] = result.contents.map((item) => ({
      type: "resource",
      resource: {
        uri: String(item.uri ?? uri),
        ...(typeof item.mimeType === "string" ? { mimeType: item.mimeType } : {}),
        ...(typeof item.text === "string" ? { text: item.text } : {}),
        ...(typeof item.blob === "string" ? { blob: item.blob } : {}),
      },
    }));
    return toolSuccess(content, { metadata: { server: name, uri } });
  } catch (error) {
    return toolFailure(
      "mcp_call_error",
      `Reading ${uri} from MCP server "${name}" failed: ${errorMessage(error)}`,
      { metadata: { server: name } },
    );
  }
}

/** The source of the generic tools: its set follows which servers are connected. */
export class ResourceToolSource extends StaticToolSource {
  /** Made once, when first wanted: a zod schema and its JSON Schema each is not free per connect. */
  private all: Tool[] | undefined;

  constructor(private readonly manager: McpManager) {
    super(RESOURCE_SOURCE_ID, []);
    manager.onConnectionsChanged(() => this.refresh());
  }

  refresh(): void {
    const resources = this.manager.anyServerWith("resources");
    const prompts = this.manager.anyServerWith("prompts");
    if (!resources && !prompts && this.tools().length === 0) return;
    this.all ??= resourceTools(this.manager);
    const wanted = this.all.filter((tool) =>
      tool.definition.name.includes("prompt") ? prompts : resources,
    );
    const current = this.tools()
      .map((tool) => tool.definition.name)
      .join();
    if (wanted.map((tool) => tool.definition.name).join() !== current) this.setTools(wanted);
  }
}
