import type { Tool } from "../contracts/tool.js";
import { PluginError } from "../errors.js";
import { INLINE_TOOL_SOURCE } from "../tools/inline-tool-source.js";
import { StaticToolSource } from "../tools/static-tool-source.js";
import { definePlugin, type Plugin } from "./plugin.js";

/** The plugin that holds `createAgent({ tools })`: its name, unlike a user's, has a slash. */
export const INLINE_TOOLS_PLUGIN = "pseudoclaude/inline-tools";

/**
 * `createAgent({ tools })` as a plugin: one static source per `source` the tools name (a
 * `defineTool` without `source` is in `code`), so a tool is always in the
 * source its definition says. A mistake in the list throws here, naming the tool.
 */
export function inlineToolsPlugin(tools: readonly Tool[]): Plugin {
  const bySource = new Map<string, Tool[]>();
  const names = new Set<string>();
  tools.forEach((tool, index) => {
    const name = tool?.definition?.name;
    if (typeof name !== "string" || typeof tool.execute !== "function") {
      throw new PluginError(
        "invalid_tool",
        `createAgent: tools[${index}] is not a tool (make one with defineTool({ name, description, input, execute })).`,
        { details: { index } },
      );
    }
    if (names.has(name)) {
      throw new PluginError(
        "invalid_tool",
        `createAgent: two tools are named "${name}" (tools[${index}]); tool names must be unique.`,
        { details: { index, tool: name } },
      );
    }
    names.add(name);
    const source = tool.definition.source || INLINE_TOOL_SOURCE;
    bySource.set(source, [...(bySource.get(source) ?? []), tool]);
  });
  return definePlugin({
    name: INLINE_TOOLS_PLUGIN,
    register(context) {
      for (const [source, list] of bySource)
        context.addToolSource(new StaticToolSource(source, list));
    },
  });
}
