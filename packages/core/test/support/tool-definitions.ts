import type { ToolDefinition } from "../../src/contracts/tool-definition.js";

/** A side-effect tool definition by name, with `extra` fields on top. */
export function def(name: string, extra: Partial<ToolDefinition> = {}): ToolDefinition {
  return {
    name,
    description: "",
    inputSchema: { type: "object" },
    safety: "side_effect",
    source: "t",
    ...extra,
  };
}

/** Definitions shaped like the built-in tools, for policy tests. */
export const readTool = def("read_file", {
  safety: "read_only",
  permissionKey: { argument: "path", match: "path" },
});
export const writeTool = def("write_file", {
  category: "edit",
  permissionKey: { argument: "path", match: "path" },
});
export const shell = def("run_command", {
  category: "command",
  permissionKey: { argument: "command", match: "command" },
});
