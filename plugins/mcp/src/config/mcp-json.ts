import path from "node:path";
import type { Diagnostic } from "@pseudoclaude/core";
import {
  expandVariables,
  isPlainObject,
  loadConfigFile,
  type SectionEntry,
} from "@pseudoclaude/core/plugin";

/** The project file Claude Code, Cursor and other agents keep MCP servers in. */
export const MCP_JSON_FILE = ".mcp.json";
const MCP_JSON_SECTION = "mcpServers";

/** Keys of an `mcpServers` entry that mean the same here; others are warned about and dropped. */
const SHARED_KEYS = new Set([
  "type",
  "command",
  "args",
  "env",
  "url",
  "headers",
  "cwd",
  "disabled",
]);
/** Transport names other agents write, and ours. */
const TRANSPORTS: Record<string, string> = {
  stdio: "stdio",
  http: "http",
  "streamable-http": "http",
  streamableHttp: "http",
  sse: "sse",
};

/** `<workspace>/.mcp.json` as a section entry of the project layer, with its diagnostics. */
export function readMcpJson(workspace: string): {
  entries: SectionEntry[];
  diagnostics: Diagnostic[];
} {
  const file = path.join(workspace, MCP_JSON_FILE);
  const loaded = loadConfigFile("project", file, MCP_JSON_FILE);
  const diagnostics = loaded.diagnostics.map((diagnostic) => ({ ...diagnostic, source: "mcp" }));
  // Other agents keep more in this file; only `mcpServers` is ours to read.
  return { entries: loaded.section(MCP_JSON_SECTION), diagnostics };
}

/**
 * One `mcpServers` entry in our shape, before validation: the shared keys kept (`disabled`
 * becomes `enabled: false`, transport names mapped), `${VAR}` and `${VAR:-default}` expanded in
 * `command`, `args` and `url` as the agents that share the file do (`env` and `headers` are
 * expanded later, like ours, and kept out of diagnostics), other keys warned about and dropped.
 */
export function fromMcpJson(
  name: string,
  value: unknown,
  entry: SectionEntry,
  env: NodeJS.ProcessEnv,
): { value: unknown; diagnostics: Diagnostic[] } {
  if (!isPlainObject(value)) return { value, diagnostics: [] };
  const diagnostics: Diagnostic[] = [];
  const warn = (subPath: Array<string | number>, code: string, message: string) => {
    const position = entry.locate([name, ...subPath]);
    diagnostics.push({
      stage: "config",
      severity: "warning",
      code,
      source: "mcp",
      layer: entry.layer,
      item: name,
      ...position,
      message,
    });
  };
  const expand = (text: unknown, subPath: Array<string | number>) => {
    if (typeof text !== "string") return text;
    const expansion = expandVariables(text, env);
    for (const missing of expansion.missing)
      warn(
        subPath,
        "unset_variable",
        `${subPath.join(".")} of server "${name}" in ${MCP_JSON_FILE} uses \${${missing}}, which is not set; it expands to an empty string.`,
      );
    return expansion.value;
  };
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (!SHARED_KEYS.has(key)) {
      warn(
        [key],
        "mcp_json_unknown_key",
        `${MCP_JSON_FILE}: key "${key}" of server "${name}" has no meaning here; ignored.`,
      );
      continue;
    }
    if (key === "disabled") {
      if (field === true) out.enabled = false;
      continue;
    }
    if (key === "type") out.type = typeof field === "string" ? (TRANSPORTS[field] ?? field) : field;
    else if (key === "command" || key === "url") out[key] = expand(field, [key]);
    else if (key === "args" && Array.isArray(field))
      out.args = field.map((arg, index) => expand(arg, ["args", index]));
    else out[key] = field;
  }
  return { value: out, diagnostics };
}
