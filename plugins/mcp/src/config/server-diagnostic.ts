import type { Diagnostic } from "@pseudoclaude/core";
import type { SectionEntry } from "@pseudoclaude/core/plugin";

/** A problem with one server entry, placed at its position in the file it came from. */
export function configDiagnostic(
  entry: SectionEntry,
  subPath: Array<string | number>,
  message: string,
  item?: string,
): Diagnostic {
  const position = entry.locate(subPath);
  const diagnostic: Diagnostic = {
    stage: "config",
    severity: "error",
    code: "mcp_server_invalid",
    source: "mcp",
    layer: entry.layer,
    file: position.file,
    message,
  };
  if (position.line !== undefined) diagnostic.line = position.line;
  if (position.column !== undefined) diagnostic.column = position.column;
  if (item) diagnostic.item = item;
  return diagnostic;
}
