import path from "node:path";
import type { Diagnostic } from "@pseudoclaude/core";
import {
  expandVariables,
  isPlainObject,
  loadConfigFile,
  type Redactor,
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
 * becomes `enabled: false`, transport names mapped), other keys warned about and dropped.
 * `${VAR}`s stay as written: they are expanded by {@link expandMcpJsonTemplates} only once the
 * server is approved, so an unapproved server's URL never carries the user's values anywhere.
 */
export function fromMcpJson(
  name: string,
  value: unknown,
  entry: SectionEntry,
): { value: unknown; diagnostics: Diagnostic[] } {
  if (!isPlainObject(value)) return { value, diagnostics: [] };
  const diagnostics: Diagnostic[] = [];
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (!SHARED_KEYS.has(key)) {
      diagnostics.push(
        warning(
          entry,
          name,
          [key],
          "mcp_json_unknown_key",
          `${MCP_JSON_FILE}: key "${key}" of server "${name}" has no meaning here; ignored.`,
        ),
      );
      continue;
    }
    if (key === "disabled") {
      if (field === true) out.enabled = false;
      continue;
    }
    if (key === "type") out.type = typeof field === "string" ? (TRANSPORTS[field] ?? field) : field;
    else out[key] = field;
  }
  return { value: out, diagnostics };
}

/**
 * `${VAR}` and `${VAR:-default}` expanded in `command`, `args` and `url`, as the agents that
 * share the file do (`env` and `headers` are expanded later, like ours). Every expanded value is
 * registered as a secret, whatever the variable is called: a token in a URL's path is still a
 * token.
 */
export function expandMcpJsonTemplates(
  name: string,
  value: unknown,
  entry: SectionEntry,
  options: { env: NodeJS.ProcessEnv; redactor: Redactor },
): { value: unknown; diagnostics: Diagnostic[] } {
  if (!isPlainObject(value)) return { value, diagnostics: [] };
  const diagnostics: Diagnostic[] = [];
  const expand = (text: unknown, subPath: Array<string | number>) => {
    if (typeof text !== "string") return text;
    const expansion = expandVariables(text, options.env);
    for (const secret of expansion.values) options.redactor.addSecret(secret);
    for (const missing of expansion.missing)
      diagnostics.push(
        warning(
          entry,
          name,
          subPath,
          "unset_variable",
          `${subPath.join(".")} of server "${name}" in ${MCP_JSON_FILE} uses \${${missing}}, which is not set; it expands to an empty string.`,
        ),
      );
    return expansion.value;
  };
  const out: Record<string, unknown> = { ...value };
  if (out.command !== undefined) out.command = expand(out.command, ["command"]);
  if (out.url !== undefined) out.url = expand(out.url, ["url"]);
  if (Array.isArray(out.args))
    out.args = out.args.map((arg, index) => expand(arg, ["args", index]));
  return { value: out, diagnostics };
}

function warning(
  entry: SectionEntry,
  name: string,
  subPath: Array<string | number>,
  code: string,
  message: string,
): Diagnostic {
  return {
    stage: "config",
    severity: "warning",
    code,
    source: "mcp",
    layer: entry.layer,
    item: name,
    ...entry.locate([name, ...subPath]),
    message,
  };
}
