import path from "node:path";
import { type Diagnostic, type LoadedConfig } from "@pseudoclaude/core";
import type { WorkspaceConsent } from "@pseudoclaude/core/consent";
import {
  blockingDiagnostic,
  CONFIG_PARSE,
  type ConfigSectionSpec,
  DefaultRedactor,
  isPlainObject,
  type Redactor,
  type SectionEntry,
  validateSection,
} from "@pseudoclaude/core/plugin";
import { expandMcpJsonTemplates, fromMcpJson, MCP_JSON_FILE, readMcpJson } from "./mcp-json.js";
import { readMcpJsonChoices } from "./mcp-json-choices.js";
import {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_MAX_OUTPUT_CHARS,
  entrySchemaFor,
  type McpServerConfig,
  type RawServerEntry,
  SERVER_NAME,
} from "./server-config.js";
import { serverSubject } from "./server-consent.js";
import { configDiagnostic } from "./server-diagnostic.js";
import { expandMap, oauthSettings } from "./server-values.js";

export const MCP_SECTION = "mcp_servers";

/**
 * Server names to entries; a more specific layer replaces an entry whole (no field merge), and a
 * mistake in an entry's safety keys fails closed.
 */
export const MCP_SECTION_SPEC: ConfigSectionSpec = {
  key: MCP_SECTION,
  owner: "mcp",
  entries: true,
  restricts: true,
};

interface Candidate {
  name: string;
  value: unknown;
  entry: SectionEntry;
  /** From `.mcp.json`: `${VAR}` in command, args and url too, once approved. */
  mcpJson: boolean;
  /** The user entry this project entry replaced, if any. */
  shadowed?: { value: unknown; entry: SectionEntry };
}

export interface LoadedServers {
  servers: McpServerConfig[];
  /** Servers present but `enabled: false`. */
  disabled: string[];
  diagnostics: Diagnostic[];
}

/**
 * Both config layers; a project entry replaces the same-named user entry whole
 * (no field merge, before validation); `${VAR}` expands only in `env` and `headers` (and in
 * `.mcp.json`'s command, args and url); each server is validated on its own and an invalid one
 * is skipped with a diagnostic. Every server of the workspace's files carries the approval it
 * needs, and nothing of the user's environment is expanded into one the user has not approved
 * (`consent`; without it, none is).
 */
export function loadServers(
  config: LoadedConfig,
  options: {
    workspace: string;
    redactor: Redactor;
    env?: NodeJS.ProcessEnv;
    /** Servers given in code (`mcp({ servers })`): the most specific layer. */
    codeServers?: Record<string, unknown>;
    /** Read `<workspace>/.mcp.json` as project servers (default true). */
    mcpJson?: boolean;
    /** The user's approvals for this workspace: a project server expands variables only once approved. */
    consent?: WorkspaceConsent;
  },
): LoadedServers {
  const diagnostics: Diagnostic[] = [];
  const merged = new Map<string, Candidate>();
  const choices = readMcpJsonChoices(config, (diagnostic) => diagnostics.push(diagnostic));
  const ours = config.section(MCP_SECTION);
  // `.mcp.json` is one more project layer, read before our own project file, so a name in
  // both is taken from `.PseudoClaude/config.yaml`.
  const shared = options.mcpJson === false ? undefined : readMcpJson(options.workspace);
  if (shared) diagnostics.push(...shared.diagnostics);
  const sharedEntries = new Set(shared?.entries ?? []);
  const firstProject = ours.findIndex((entry) => entry.layer !== "user");
  const entries: SectionEntry[] =
    firstProject === -1
      ? [...ours, ...sharedEntries]
      : [...ours.slice(0, firstProject), ...sharedEntries, ...ours.slice(firstProject)];
  if (options.codeServers) {
    entries.push({
      // Servers given in code are a layer of their own, after every file's, which the kernel's
      // file layers ("user" | "project") do not name; only this plugin reads it.
      layer: "code" as never,
      file: "<code>",
      value: options.codeServers,
      locate: () => ({ file: "<code>" }),
    });
  }
  for (const entry of entries) {
    if (entry.value === null || entry.value === undefined) continue;
    if (!isPlainObject(entry.value)) {
      diagnostics.push(
        configDiagnostic(
          entry,
          [],
          `${MCP_SECTION} must be a mapping of server names to settings.`,
        ),
      );
      continue;
    }
    for (const [name, given] of Object.entries(entry.value)) {
      let value = given;
      const mcpJson = sharedEntries.has(entry);
      if (mcpJson) {
        const normalised = fromMcpJson(name, given, entry);
        diagnostics.push(...normalised.diagnostics);
        value = normalised.value;
      }
      const previous = merged.get(name);
      const candidate: Candidate = { name, value, entry, mcpJson };
      if (previous) {
        candidate.shadowed = { value: previous.value, entry: previous.entry };
        if (sharedEntries.has(previous.entry) && !sharedEntries.has(entry))
          diagnostics.push({
            ...configDiagnostic(
              previous.entry,
              [name],
              `Server "${name}" is in both ${MCP_JSON_FILE} and ${entry.file}; the entry of ${entry.file} is used, the one in ${MCP_JSON_FILE} is ignored.`,
              name,
            ),
            severity: "info",
            code: "mcp_json_shadowed",
          });
      }
      merged.set(name, candidate);
    }
  }

  const servers: McpServerConfig[] = [];
  const disabled: string[] = [];
  for (const candidate of merged.values()) {
    const { name, entry } = candidate;
    if (!SERVER_NAME.test(name)) {
      diagnostics.push(
        configDiagnostic(
          entry,
          [name],
          `Server name "${name}" must use letters, digits, "_" or "-"; skipped.`,
          name,
        ),
      );
      continue;
    }
    // A `.mcp.json` server a layer disables does not start, approved or not.
    if (candidate.mcpJson && choices.disabled.has(name)) {
      disabled.push(name);
      continue;
    }
    const env = options.env ?? process.env;
    const approval =
      entry.layer === "project"
        ? serverSubject(name, withDefaultType(candidate.value), {
            workspace: options.workspace,
            env,
          })
        : undefined;
    // The user's own enableAllProjectMcpServers / enabledMcpjsonServers is consent.
    const chosen = candidate.mcpJson && (choices.all || choices.enabled.has(name));
    const approved = !approval || chosen || (options.consent?.isApproved(approval) ?? false);
    const written = withDefaultType(candidate.value);
    let value = written;
    if (candidate.mcpJson) {
      // Checked as it would run; an unapproved server keeps its templates, and what they
      // expanded to here is neither kept, shown nor sent.
      const expanded = expandMcpJsonTemplates(name, value, entry, {
        env,
        redactor: approved ? options.redactor : new DefaultRedactor(),
      });
      if (approved) diagnostics.push(...expanded.diagnostics);
      value = expanded.value;
    }
    const checked = validateSection(schemaOfEntry(value), entry, {
      path: [name],
      value,
      sectionKey: MCP_SECTION,
      source: "mcp",
      item: name,
    });
    if (checked.ok && candidate.mcpJson && !approved && isPlainObject(written))
      Object.assign(
        checked.value,
        Object.fromEntries(
          ["command", "args", "url"]
            .filter((key) => written[key] !== undefined)
            .map((key) => [key, written[key]]),
        ),
      );
    if (!checked.ok) {
      const shadowNote = shadowNoteFor(candidate);
      for (const diagnostic of checked.diagnostics) {
        diagnostic.message = `${diagnostic.message}; server "${name}" is skipped.${shadowNote}`;
        diagnostics.push(
          touchesSafety(diagnostic, name) ? blockingDiagnostic(diagnostic) : diagnostic,
        );
      }
      continue;
    }
    const raw = checked.value;
    if (raw.enabled === false) {
      disabled.push(name);
      continue;
    }
    if (candidate.shadowed && candidate.shadowed.entry.layer === "user" && approval)
      diagnostics.push({
        ...configDiagnostic(
          entry,
          [name],
          `Server "${name}" of ${entry.file} replaces the one of the same name in ${candidate.shadowed.entry.file}: it is another server, so it needs your approval before it starts, and your rules for mcp__${name}__* apply to it only once approved.`,
          name,
        ),
        severity: approved ? "info" : "warning",
        code: "mcp_server_shadowed",
      });
    const server = toServerConfig(
      name,
      raw,
      candidate.entry,
      { ...options, expand: approved },
      diagnostics,
    );
    if (approval && !chosen) server.approval = approval;
    servers.push(server);
  }
  return { servers, disabled, diagnostics };
}

/** The schema a written entry is checked with, by the `type` it gives (see entrySchemaFor). */
function schemaOfEntry(value: unknown) {
  return entrySchemaFor(isPlainObject(value) ? value.type : undefined);
}

/** `type` may be left out: a `command` means stdio, a `url` means http. */
function withDefaultType(value: unknown): unknown {
  if (!isPlainObject(value) || value.type !== undefined) return value;
  if (typeof value.command === "string") return { ...value, type: "stdio" };
  if (typeof value.url === "string") return { ...value, type: "http" };
  return value;
}

function shadowNoteFor(candidate: Candidate): string {
  if (!candidate.shadowed) return "";
  const shadowed = withDefaultType(candidate.shadowed.value);
  const userValid = schemaOfEntry(shadowed).safeParse(shadowed, CONFIG_PARSE).success;
  return userValid
    ? ` This ${candidate.entry.layer} entry replaces the valid ${candidate.shadowed.entry.layer} entry of the same name whole, so the ${candidate.shadowed.entry.layer} entry is not used either.`
    : "";
}

/**
 * Whether a problem in a server entry touches what restricts it (its tool filter, what it is
 * trusted with) or is an unknown key (a misspelt one of those): such an entry must stop a run,
 * not leave the user's server running with less restriction, or without it, silently.
 */
function touchesSafety(diagnostic: Diagnostic, name: string): boolean {
  const restricting = ["tools", "trust_annotations", "read_only_tools", "read_only", "inherit_env"];
  return (
    /Unrecognized key/i.test(diagnostic.message) ||
    restricting.some((key) => diagnostic.message.startsWith(`${MCP_SECTION}.${name}.${key}`))
  );
}

function toServerConfig(
  name: string,
  raw: RawServerEntry,
  entry: SectionEntry,
  options: {
    workspace: string;
    redactor: Redactor;
    env?: NodeJS.ProcessEnv;
    /** False for a server the user has not approved: its templates stay unexpanded. */
    expand: boolean;
  },
  diagnostics: Diagnostic[],
): McpServerConfig {
  const common = {
    name,
    layer: entry.layer,
    toolFilter: {
      ...(raw.tools?.allow ? { allow: raw.tools.allow } : {}),
      ...(raw.tools?.deny ? { deny: raw.tools.deny } : {}),
    },
    trustAnnotations: raw.trust_annotations ?? false,
    readOnlyTools: raw.read_only_tools ?? [],
    allReadOnly: raw.read_only ?? false,
    connectTimeoutMs: raw.connect_timeout_ms ?? DEFAULT_CONNECT_TIMEOUT_MS,
    ...(raw.call_timeout_ms !== undefined ? { callTimeoutMs: raw.call_timeout_ms } : {}),
    ...(raw.defer_loading !== undefined ? { deferLoading: raw.defer_loading } : {}),
    ...(raw.task_timeout_ms !== undefined ? { taskTimeoutMs: raw.task_timeout_ms } : {}),
    maxOutputChars: raw.max_output_chars ?? DEFAULT_MAX_OUTPUT_CHARS,
    includeInstructions: raw.instructions ?? true,
    sampling: raw.sampling ?? false,
    samplingModels: raw.sampling_models ?? [],
    protocol: raw.protocol ?? "auto",
    ...(raw.logging ? { logLevel: raw.logging.level } : {}),
  };
  let server: McpServerConfig;
  if (raw.type === "stdio") {
    server = {
      ...common,
      transport: "stdio",
      command: raw.command,
      args: raw.args ?? [],
      env: expandMap(raw.env ?? {}, "env", name, entry, options, diagnostics),
      inheritEnv: raw.inherit_env ?? false,
      headers: {},
      ...(raw.cwd ? { cwd: path.resolve(options.workspace, raw.cwd) } : {}),
    };
  } else {
    const headers = expandMap(raw.headers ?? {}, "headers", name, entry, options, diagnostics);
    for (const [header, value] of Object.entries(headers)) {
      // A variable can smuggle a line break in after validation; refuse rather than inject.
      if (/[\r\n]/.test(value)) {
        delete headers[header];
        diagnostics.push(
          configDiagnostic(
            entry,
            [name, "headers", header],
            `Header "${header}" of server "${name}" expands to a value with CR or LF; the header is dropped.`,
            name,
          ),
        );
      }
    }
    server = { ...common, transport: raw.type, url: raw.url, headers, env: {} };
    if (raw.oauth) server.oauth = oauthSettings(raw.oauth, name, entry, options, diagnostics);
  }
  if (raw.read_only) {
    diagnostics.push({
      ...configDiagnostic(
        entry,
        [name, "read_only"],
        `Server "${name}" has read_only: true, which declares every tool of it read-only. This relaxes safety (plan mode, permissions, parallel runs) on your word; it is not isolation.`,
        name,
      ),
      severity: "warning",
      code: "relaxes_safety",
    });
  }
  return server;
}
