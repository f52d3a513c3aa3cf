import type { Tool } from "@pseudoclaude/core";
import { editFileTool } from "./edit-file-tool.js";
import { globTool } from "./glob-tool.js";
import { grepTool } from "./grep-tool.js";
import { listDirTool } from "./list-dir-tool.js";
import { readFileTool } from "./read-file-tool.js";
import { runCommandTool } from "./run-command-tool.js";
import type { ToolKit } from "./tool-kit.js";
import { writeFileTool } from "./write-file-tool.js";

/** Every built-in tool: four read-only, three with side effects. */
export function createBuiltinTools(kit: ToolKit): Tool[] {
  return [
    readFileTool(kit),
    listDirTool(kit),
    globTool(kit),
    grepTool(kit),
    writeFileTool(kit),
    editFileTool(kit),
    runCommandTool(kit),
  ];
}
