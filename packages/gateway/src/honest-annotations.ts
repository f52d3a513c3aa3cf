import type { ToolDefinition } from "@pseudoclaude/core";

/** MCP tool annotations as the gateway states them. */
export interface ExportedAnnotations {
  title?: string;
  readOnlyHint: boolean;
  destructiveHint?: boolean;
}

/**
 * The gateway's own annotations: what our registry knows about a tool (its safety, which only
 * trusted sources set to read-only), never what an upstream server claims. A tool not known to
 * be read-only is said to be possibly destructive, MCP's own default.
 */
export function honestAnnotations(definition: ToolDefinition): ExportedAnnotations {
  const annotations: ExportedAnnotations =
    definition.safety === "read_only"
      ? { readOnlyHint: true }
      : { readOnlyHint: false, destructiveHint: true };
  if (definition.title) annotations.title = definition.title;
  return annotations;
}
