import type { Diagnostic, Tool } from "@pseudoclaude/core";
import picomatch from "picomatch";
import type { McpServerConfig } from "../config/server-config.js";
import type { RemoteTool } from "../mcp-session.js";
import { adaptWith, type RemoteCaller, ServerToolHost } from "./adapt-tool.js";
import { SchemaPool } from "./schema-pool.js";
import { assignLocalNames } from "./tool-name.js";

export interface AdaptedServerTools {
  tools: Tool[];
  /** Remote tools left out by the server's `tools.allow` / `tools.deny` filters. */
  filtered: number;
  diagnostics: Diagnostic[];
}

/**
 * Filter, name and wrap every tool a server listed. A tool that cannot be adapted is skipped
 * with a diagnostic; renames are reported so nobody wonders where a name came from.
 */
export function adaptServerTools(
  server: McpServerConfig,
  remoteTools: readonly RemoteTool[],
  caller: RemoteCaller,
  /** For diagnostics found later, on a tool's first call. */
  report?: (diagnostic: Diagnostic) => void,
): AdaptedServerTools {
  const diagnostics: Diagnostic[] = [];
  const allow = server.toolFilter.allow ? picomatch(server.toolFilter.allow) : undefined;
  const deny = server.toolFilter.deny ? picomatch(server.toolFilter.deny) : undefined;
  let filtered = 0;
  const kept: RemoteTool[] = [];
  for (const remote of remoteTools) {
    if (typeof remote.name !== "string" || remote.name.trim() === "") {
      diagnostics.push(
        toolDiagnostic(
          server,
          String(remote.name ?? ""),
          "empty_tool_name",
          `Server "${server.name}" listed a tool with an empty name; skipped.`,
        ),
      );
      continue;
    }
    if ((allow && !allow(remote.name)) || deny?.(remote.name)) {
      filtered += 1;
      continue;
    }
    kept.push(remote);
  }
  const names = assignLocalNames(
    server.name,
    kept.map((remote) => remote.name),
  );
  const tools: Tool[] = [];
  const host = new ServerToolHost(server, caller, report ?? (() => {}));
  const schemas = new SchemaPool();
  kept.forEach((remote, index) => {
    const named = names[index]!;
    if (named.renamed) {
      diagnostics.push({
        ...toolDiagnostic(
          server,
          remote.name,
          "tool_renamed",
          `Tool ${JSON.stringify(remote.name)} of server "${server.name}" is offered as "${named.localName}" (${named.renamed}); calls still use the remote name.`,
        ),
        severity: "info",
      });
    }
    const adapted = adaptWith(host, remote, named.localName, schemas);
    diagnostics.push(...adapted.diagnostics);
    tools.push(adapted.tool);
  });
  return { tools, filtered, diagnostics };
}

/** `read_only_tools` entries that name no tool of the server: probably typos. */
export function unknownReadOnlyDeclarations(
  server: McpServerConfig,
  remoteTools: readonly RemoteTool[],
): Diagnostic[] {
  const names = new Set(remoteTools.map((tool) => tool.name));
  return server.readOnlyTools
    .filter((name) => !names.has(name))
    .map((name) => ({
      ...toolDiagnostic(
        server,
        name,
        "unknown_read_only_tool",
        `read_only_tools of server "${server.name}" names "${name}", which the server does not offer.`,
      ),
      severity: "warning" as const,
      stage: "config",
    }));
}

function toolDiagnostic(
  server: McpServerConfig,
  tool: string,
  code: string,
  message: string,
): Diagnostic {
  return {
    stage: "adapt_tool",
    severity: "warning",
    code,
    source: `mcp:${server.name}`,
    item: `${server.name}/${tool}`,
    message,
  };
}
