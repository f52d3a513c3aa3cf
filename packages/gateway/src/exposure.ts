import type { ToolDefinition } from "@pseudoclaude/core";
import picomatch from "picomatch";
import type { GatewaySettings } from "./gateway-section.js";

/** Whether a tool is one clients may see, by `gateway.expose`. */
export type ExposureTest = (definition: ToolDefinition) => boolean;

/**
 * A pattern names a tool by its registry name, one of its aliases, or its source id
 * (`mcp:github`, `builtin-tools`). Every `allow` list must name the tool (so a workspace's list
 * narrows the user's, never widens it); any `deny` pattern hides it.
 */
export function exposureTest(expose: GatewaySettings["expose"]): ExposureTest {
  const allowLists = expose.allow.map(matcher);
  const deny = expose.deny.length > 0 ? matcher(expose.deny) : undefined;
  return (definition) => {
    const names = [definition.name, definition.source, ...(definition.aliases ?? [])];
    if (deny && names.some(deny)) return false;
    return allowLists.every((allows) => names.some(allows));
  };
}

function matcher(patterns: readonly string[]): (name: string) => boolean {
  return picomatch([...patterns], { dot: true });
}
