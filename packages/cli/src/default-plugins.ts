import type { Plugin } from "@pseudoclaude/core";

/**
 * The plugins every `pseudoclaude` command starts with, before any `--plugin`. Empty until the
 * MCP, builtin-tools and skills plugins land; a function so each agent gets fresh instances.
 */
export function defaultPlugins(): Plugin[] {
  return [];
}
