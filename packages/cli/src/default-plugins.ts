import type { Plugin } from "@pseudoclaude/core";
import { mcp } from "@pseudoclaude/plugin-mcp";

/**
 * The plugins every `pseudoclaude` command starts with, before any `--plugin`. A function so
 * each agent gets fresh instances.
 */
export function defaultPlugins(): Plugin[] {
  return [mcp()];
}
