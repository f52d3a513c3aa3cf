import type { Tool } from "../../src/contracts/tool.js";
import type { ToolDefinition } from "../../src/contracts/tool-definition.js";
import { toolSuccess } from "../../src/contracts/tool-result.js";

/** A read-only tool by name and source, with `extra` definition fields, that echoes its arguments unless given `run`. */
export function tool(
  name: string,
  source = "a",
  extra: Partial<ToolDefinition> = {},
  run?: Tool["execute"],
): Tool {
  return {
    definition: {
      name,
      description: name,
      inputSchema: { type: "object" },
      safety: "read_only",
      source,
      ...extra,
    },
    execute: run ?? (async (args) => toolSuccess(JSON.stringify(args))),
  };
}
