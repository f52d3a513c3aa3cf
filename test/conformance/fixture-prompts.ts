// The conformance fixture's prompts: one per prompts scenario of the suite, plus the ones the
// prompt-change tool adds.
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  GetPromptRequestSchema,
  type GetPromptResult,
  ListPromptsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { PNG } from "./fixture-media.js";
import { added } from "./fixture-tools.js";

const PROMPTS = [
  { name: "test_simple_prompt", description: "A prompt with no arguments." },
  {
    name: "test_prompt_with_arguments",
    description: "A prompt with two required arguments.",
    arguments: [
      { name: "arg1", description: "First test argument", required: true },
      { name: "arg2", description: "Second test argument", required: true },
    ],
  },
  {
    name: "test_prompt_with_embedded_resource",
    description: "A prompt that embeds a resource.",
    arguments: [{ name: "resourceUri", description: "URI of the resource", required: true }],
  },
  { name: "test_prompt_with_image", description: "A prompt with an image." },
];

/** Serve the prompts' list and gets on `server`. */
export function registerPrompts(server: Server): void {
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: [...PROMPTS, ...added.prompts],
  }));

  server.setRequestHandler(GetPromptRequestSchema, async (request): Promise<GetPromptResult> => {
    const args = request.params.arguments ?? {};
    switch (request.params.name) {
      case "test_simple_prompt":
        return {
          messages: [
            {
              role: "user",
              content: { type: "text", text: "This is a simple prompt for testing." },
            },
          ],
        };
      case "test_prompt_with_arguments":
        return {
          messages: [
            {
              role: "user",
              content: {
                type: "text",
                text: `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'`,
              },
            },
          ],
        };
      case "test_prompt_with_embedded_resource":
        return {
          messages: [
            {
              role: "user",
              content: {
                type: "resource",
                resource: {
                  uri: String(args.resourceUri),
                  mimeType: "text/plain",
                  text: "Embedded resource content for testing.",
                },
              },
            },
            {
              role: "user",
              content: { type: "text", text: "Please process the embedded resource above." },
            },
          ],
        };
      case "test_prompt_with_image":
        return {
          messages: [
            { role: "user", content: { type: "image", data: PNG, mimeType: "image/png" } },
            { role: "user", content: { type: "text", text: "Please analyze the image above." } },
          ],
        };
      default:
        if (added.prompts.some((prompt) => prompt.name === request.params.name))
          return { messages: [{ role: "user", content: { type: "text", text: "Added prompt." } }] };
        throw new McpError(-32602, `Unknown prompt: ${request.params.name}`);
    }
  });
}
