import type { Plugin } from "@pseudoclaude/core";
import { providerSectionPlugin } from "@pseudoclaude/core/provider";
import { agents } from "@pseudoclaude/plugin-agents";
import { builtinTools } from "@pseudoclaude/plugin-builtin-tools";
import { hooks } from "@pseudoclaude/plugin-hooks";
import { mcp } from "@pseudoclaude/plugin-mcp";
import { skills } from "@pseudoclaude/plugin-skills";

/**
 * The plugins every `pseudoclaude` command starts with, before any `--plugin`. A function so
 * each agent gets fresh instances.
 */
export function defaultPlugins(): Plugin[] {
  return [mcp(), builtinTools(), skills(), hooks(), agents(), providerSectionPlugin()];
}
