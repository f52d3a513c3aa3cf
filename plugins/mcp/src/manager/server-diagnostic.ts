import type { Diagnostic } from "@pseudoclaude/core";

/** A diagnostic about one server as a whole (`mcp:<server>`, item the server's name). */
export function serverDiagnostic(
  server: string,
  stage: string,
  severity: Diagnostic["severity"],
  code: string,
  message: string,
): Diagnostic {
  return { stage, severity, code, source: `mcp:${server}`, item: server, message };
}
