// The conformance fixture's tools: one per tools scenario of the suite, each returning what the
// scenario's description asks for, plus the two that change the tool and prompt lists.
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  CreateMessageResultSchema,
  ElicitResultSchema,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { PNG, WAV } from "./fixture-media.js";

const NO_ARGS = { type: "object", properties: {} } as const;

/** The schema of the suite's JSON Schema 2020-12 scenario, keyword for keyword. */
const SCHEMA_2020_12 = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  $defs: {
    address: {
      $anchor: "addressDef",
      type: "object",
      properties: { street: { type: "string" }, city: { type: "string" } },
    },
  },
  properties: {
    name: { type: "string" },
    address: { $ref: "#/$defs/address" },
    contactMethod: { type: "string", enum: ["phone", "email"] },
    phone: { type: "string" },
    email: { type: "string" },
  },
  allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
  if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
  // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword, not a promise.
  then: { required: ["phone"] },
  else: { required: ["email"] },
  additionalProperties: false,
};

export const TOOLS = [
  { name: "test_simple_text", description: "Returns simple text.", inputSchema: NO_ARGS },
  { name: "test_image_content", description: "Returns a PNG image.", inputSchema: NO_ARGS },
  { name: "test_audio_content", description: "Returns a WAV clip.", inputSchema: NO_ARGS },
  {
    name: "test_embedded_resource",
    description: "Returns an embedded text resource.",
    inputSchema: NO_ARGS,
  },
  {
    name: "test_multiple_content_types",
    description: "Returns text, an image and a resource.",
    inputSchema: NO_ARGS,
  },
  {
    name: "test_tool_with_logging",
    description: "Logs three messages while it runs.",
    inputSchema: NO_ARGS,
  },
  {
    name: "test_tool_with_progress",
    description: "Reports progress 0, 50 and 100 of 100.",
    inputSchema: NO_ARGS,
  },
  { name: "test_error_handling", description: "Always fails.", inputSchema: NO_ARGS },
  {
    name: "test_sampling",
    description: "Asks the client's model for a completion.",
    inputSchema: {
      type: "object",
      properties: { prompt: { type: "string" } },
      required: ["prompt"],
    },
  },
  {
    name: "test_elicitation",
    description: "Asks the user for a username and email.",
    inputSchema: {
      type: "object",
      properties: { message: { type: "string" } },
      required: ["message"],
    },
  },
  {
    name: "test_elicitation_sep1034_defaults",
    description: "Asks for every primitive type, each with a default (SEP-1034).",
    inputSchema: NO_ARGS,
  },
  {
    name: "test_elicitation_sep1330_enums",
    description: "Asks with the five enum shapes (SEP-1330).",
    inputSchema: NO_ARGS,
  },
  {
    name: "test_trigger_tool_change",
    description: "Adds a tool and announces the change (tools/list_changed).",
    inputSchema: NO_ARGS,
  },
  {
    name: "test_trigger_prompt_change",
    description: "Adds a prompt and announces the change (prompts/list_changed).",
    inputSchema: NO_ARGS,
  },
  {
    name: "json_schema_2020_12_tool",
    description: "Tool with JSON Schema 2020-12 features",
    inputSchema: SCHEMA_2020_12,
  },
];

/** Tools and prompts added by the two trigger tools, so a list really changes. */
export const added = {
  tools: [] as typeof TOOLS,
  prompts: [] as Array<{ name: string; description: string }>,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Serve the tools' list and calls on `server`. */
export function registerTools(server: Server): void {
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [...TOOLS, ...added.tools],
  }));

  server.setRequestHandler(
    CallToolRequestSchema,
    async (request, extra): Promise<CallToolResult> => {
      const args = request.params.arguments ?? {};
      switch (request.params.name) {
        case "test_simple_text":
          return {
            content: [{ type: "text", text: "This is a simple text response for testing." }],
          };
        case "test_image_content":
          return { content: [{ type: "image", data: PNG, mimeType: "image/png" }] };
        case "test_audio_content":
          return { content: [{ type: "audio", data: WAV, mimeType: "audio/wav" }] };
        case "test_embedded_resource":
          return {
            content: [
              {
                type: "resource",
                resource: {
                  uri: "test://embedded-resource",
                  mimeType: "text/plain",
                  text: "This is an embedded resource content.",
                },
              },
            ],
          };
        case "test_multiple_content_types":
          return {
            content: [
              { type: "text", text: "Multiple content types test:" },
              { type: "image", data: PNG, mimeType: "image/png" },
              {
                type: "resource",
                resource: {
                  uri: "test://mixed-content-resource",
                  mimeType: "application/json",
                  text: JSON.stringify({ test: "data", value: 123 }),
                },
              },
            ],
          };
        case "test_tool_with_logging":
          for (const [index, data] of [
            "Tool execution started",
            "Tool processing data",
            "Tool execution completed",
          ].entries()) {
            if (index > 0) await sleep(50);
            await server.sendLoggingMessage({ level: "info", data });
          }
          return { content: [{ type: "text", text: "Logging test completed." }] };
        case "test_tool_with_progress": {
          const progressToken = request.params._meta?.progressToken;
          for (const progress of [0, 50, 100]) {
            if (progress > 0) await sleep(50);
            if (progressToken !== undefined)
              await extra.sendNotification({
                method: "notifications/progress",
                params: { progressToken, progress, total: 100 },
              });
          }
          return { content: [{ type: "text", text: "Progress test completed." }] };
        }
        case "test_error_handling":
          return {
            isError: true,
            content: [
              { type: "text", text: "This tool intentionally returns an error for testing" },
            ],
          };
        case "test_sampling": {
          const answer = await server.request(
            {
              method: "sampling/createMessage",
              params: {
                messages: [{ role: "user", content: { type: "text", text: String(args.prompt) } }],
                maxTokens: 100,
              },
            },
            CreateMessageResultSchema,
          );
          const text = answer.content.type === "text" ? answer.content.text : answer.content.type;
          return { content: [{ type: "text", text: `LLM response: ${text}` }] };
        }
        case "test_elicitation": {
          const answer = await server.request(
            {
              method: "elicitation/create",
              params: {
                message: String(args.message),
                requestedSchema: {
                  type: "object",
                  properties: { username: { type: "string" }, email: { type: "string" } },
                  required: ["username", "email"],
                },
              },
            },
            ElicitResultSchema,
          );
          return {
            content: [{ type: "text", text: `User response: ${JSON.stringify(answer)}` }],
          };
        }
        case "test_elicitation_sep1034_defaults":
          return elicitationCompleted({
            type: "object",
            properties: {
              name: { type: "string", default: "John Doe" },
              age: { type: "integer", default: 30 },
              score: { type: "number", default: 95.5 },
              status: {
                type: "string",
                enum: ["active", "inactive", "pending"],
                default: "active",
              },
              verified: { type: "boolean", default: true },
            },
          });
        case "test_elicitation_sep1330_enums":
          return elicitationCompleted({
            type: "object",
            properties: {
              untitledSingle: { type: "string", enum: ["option1", "option2", "option3"] },
              titledSingle: {
                type: "string",
                oneOf: [
                  { const: "value1", title: "First Option" },
                  { const: "value2", title: "Second Option" },
                  { const: "value3", title: "Third Option" },
                ],
              },
              legacyEnum: {
                type: "string",
                enum: ["opt1", "opt2", "opt3"],
                enumNames: ["Option One", "Option Two", "Option Three"],
              },
              untitledMulti: {
                type: "array",
                items: { type: "string", enum: ["option1", "option2", "option3"] },
              },
              titledMulti: {
                type: "array",
                items: {
                  anyOf: [
                    { const: "value1", title: "First Choice" },
                    { const: "value2", title: "Second Choice" },
                    { const: "value3", title: "Third Choice" },
                  ],
                },
              },
            },
          });
        case "json_schema_2020_12_tool":
          return { content: [{ type: "text", text: "ok" }] };
        case "test_trigger_tool_change": {
          const name = `test_added_tool_${added.tools.length + 1}`;
          added.tools.push({
            name,
            description: "Added by test_trigger_tool_change.",
            inputSchema: NO_ARGS,
          });
          await server.sendToolListChanged();
          return { content: [{ type: "text", text: `Added ${name}.` }] };
        }
        case "test_trigger_prompt_change": {
          const name = `test_added_prompt_${added.prompts.length + 1}`;
          added.prompts.push({ name, description: "Added by test_trigger_prompt_change." });
          await server.sendPromptListChanged();
          return { content: [{ type: "text", text: `Added ${name}.` }] };
        }
        default:
          if (added.tools.some((tool) => tool.name === request.params.name))
            return { content: [{ type: "text", text: "Added tool." }] };
          throw new McpError(-32602, `Unknown tool: ${request.params.name}`);
      }
    },
  );

  /** Ask with `requestedSchema` and say what came back, as the SEP-1034 and SEP-1330 tools do. */
  async function elicitationCompleted(
    requestedSchema: Record<string, unknown>,
  ): Promise<CallToolResult> {
    const answer = await server.request(
      {
        method: "elicitation/create",
        params: { message: "Please review and answer.", requestedSchema: requestedSchema as never },
      },
      ElicitResultSchema,
    );
    return {
      content: [
        {
          type: "text",
          text: `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`,
        },
      ],
    };
  }
}
