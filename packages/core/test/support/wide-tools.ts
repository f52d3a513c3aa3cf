// A wide tool set as MCP servers give one (deferrable by default, real-looking schemas), and an
// agent on a scripted model limited to 128 tools a request, as OpenAI is.
import { createAgent, defineTool, type Tool } from "@pseudoclaude/core";
import { InMemoryToolSource, ScriptedProvider, type ScriptedStep } from "@pseudoclaude/testing";
import { z } from "zod";
import { sourcePlugin } from "./scripted-agent.js";

const SERVICES = ["calendar", "weather", "github", "notion", "slack", "jira", "stripe", "maps"];
const VERBS = ["list", "create", "update", "delete", "search", "get", "archive", "export"];

/** A tool as an MCP server's would be: deferrable by default, with a real-looking schema. */
export function wideTool(
  name: string,
  description: string,
  safety: Tool["definition"]["safety"],
): Tool {
  const tool = defineTool({
    name,
    description,
    input: z.object({ id: z.string().describe(`The ${name} target id`) }),
    safety,
    execute: ({ id }) => `${name} ran on ${id}`,
  });
  tool.definition.deferLoading = "auto";
  return tool;
}

/** 8 services x 8 verbs x 3 variants = 192 tools, plus a read-only weather forecast. */
export function wideSet(): Tool[] {
  const tools: Tool[] = [];
  for (const service of SERVICES)
    for (const verb of VERBS)
      for (const variant of ["", "_batch", "_v2"])
        tools.push(
          wideTool(
            `mcp__${service}__${verb}_item${variant}`,
            `${verb} an item in ${service}${variant ? ` (${variant.slice(1)})` : ""}. Filler text that makes the definition as long as real ones are.`,
            verb === "get" || verb === "list" || verb === "search" ? "read_only" : "side_effect",
          ),
        );
  tools.push(
    wideTool(
      "mcp__forecast__get_forecast",
      "Weather forecast for a city: temperature and rain for the next days.",
      "read_only",
    ),
  );
  return tools;
}

export const builtin = defineTool({
  name: "read_file",
  description: "Read a file.",
  input: z.object({ path: z.string() }),
  safety: "read_only",
  execute: () => "contents",
});

export async function wideAgent(
  steps: ScriptedStep[],
  options: Parameters<typeof createAgent>[0] = {},
  provider = new ScriptedProvider(steps, { maxTools: 128 }),
) {
  const source = new InMemoryToolSource("wide", wideSet());
  const agent = await createAgent({
    config: false,
    provider,
    tools: [builtin],
    plugins: [sourcePlugin(source)],
    ...options,
  });
  return { agent, provider, source };
}

export const search = (query: string): ScriptedStep => ({
  tool_calls: [{ name: "tool_search", arguments: { query } }],
});
