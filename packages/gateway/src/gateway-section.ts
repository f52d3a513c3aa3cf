import os from "node:os";
import path from "node:path";
import type { Diagnostic, LoadedConfig } from "@pseudoclaude/core";
import {
  CONFIG_DIR,
  type ConfigSectionSpec,
  type SectionEntry,
  type SectionFields,
  validateSectionFields,
} from "@pseudoclaude/core/plugin";
import { z } from "zod";

/** The config key the gateway reads. */
export const GATEWAY_SECTION = "gateway";

/**
 * `expose` narrows what clients see, so a mistake in it must stop the gateway rather than
 * expose everything. `rename`, `ask`, `audit` and `apps` only count from the user's own config:
 * a cloned repository must not give a shell tool a harmless name, turn refusals into
 * questions, point the audit log at a file of its choosing, or have servers show clients
 * views (and the tools only views may call) the user did not turn on.
 */
export const GATEWAY_SECTION_SPEC: ConfigSectionSpec = {
  key: GATEWAY_SECTION,
  owner: "gateway",
  userOnly: ["rename", "ask", "audit", "apps"],
  restricts: true,
};

/** What happens to a call the policy would ask about. */
export type GatewayAskMode = "elicit" | "refuse";

/**
 * How clients see the exposed tools: `all` lists every one; `search` lists two tools,
 * `search_tools` and `call_tool`, and the exposed tools are found and called through them.
 */
export type GatewayExposeMode = "all" | "search";

/** The gateway's settings, from config and code. */
export interface GatewaySettings {
  /**
   * Which tools clients see, by registry name or source id (`mcp:github`, `builtin-tools`).
   * Every layer's `allow` list must match (a workspace can only narrow the user's); any
   * `deny` pattern hides a tool. Default: every tool.
   */
  expose: { allow: readonly (readonly string[])[]; deny: readonly string[] };
  /**
   * `all` (default): `tools/list` lists every exposed tool. `search`: it lists `search_tools`
   * and `call_tool`, for clients of a registry too wide to list. The same tools are callable
   * either way.
   */
  exposeMode: GatewayExposeMode;
  /** Registry-name patterns with one `*`, mapped to the exported name (`"mcp__gh__*": "gh_*"`). */
  rename: ReadonlyArray<{ from: string; to: string }>;
  /**
   * `elicit` (default): ask the connected client through elicitation, and refuse when it
   * cannot answer. `refuse`: never ask; a call that needs approval is refused.
   */
  ask: GatewayAskMode;
  /** JSONL audit file; `false` turns it off. Default `~/.PseudoClaude/gateway-audit.jsonl`. */
  audit: string | false;
  /**
   * MCP Apps (default false): the gateway tells upstream servers it hosts views (the
   * `io.modelcontextprotocol/ui` extension) and carries them to clients that render views:
   * each tool's `_meta.ui`, the `ui://` views, the tools only views may call. Off, none of it.
   */
  apps: boolean;
}

/** Where the audit log goes when nothing says otherwise. */
export function defaultAuditFile(home: string = os.homedir()): string {
  return path.join(home, CONFIG_DIR, "gateway-audit.jsonl");
}

const patternList = z.array(z.string().trim().min(1, "must be a non-empty pattern"));

const fieldSchemas = {
  expose: z
    .object({ allow: patternList.optional(), deny: patternList.optional() })
    .strict()
    .refine((value) => value.allow === undefined || value.allow.length > 0, {
      message: "an empty allow list would expose nothing; leave it out to expose every tool",
      path: ["allow"],
    }),
  expose_mode: z.enum(["all", "search"]),
  rename: z.record(
    z.string().regex(/^[^*]*\*?[^*]*$/, "a pattern has at most one *"),
    z.string().regex(/^[A-Za-z0-9_*-]+$/, "exported names use letters, digits, _, - and *"),
  ),
  ask: z.enum(["elicit", "refuse"]),
  audit: z.union([z.string().min(1), z.literal(false)]),
  apps: z.boolean(),
} as const;

/** Settings as code may give them (camelCase; each key over the config's). */
export interface GatewayOptions {
  expose?: { allow?: readonly string[] | undefined; deny?: readonly string[] | undefined };
  exposeMode?: GatewayExposeMode | undefined;
  rename?: Readonly<Record<string, string>> | undefined;
  ask?: GatewayAskMode | undefined;
  audit?: string | false | undefined;
  apps?: boolean | undefined;
}

/**
 * The `gateway` section of every layer, then the options of code. Every problem is a
 * diagnostic with file and line; the section fails closed, so callers stop on any error.
 */
export function loadGatewaySettings(
  config: LoadedConfig,
  options: GatewayOptions = {},
  home: string = os.homedir(),
): { settings: GatewaySettings; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const allow: string[][] = [];
  const deny: string[] = [];
  let exposeMode: GatewayExposeMode = "all";
  let rename: Record<string, string> = {};
  let ask: GatewayAskMode = "elicit";
  let audit: string | false = defaultAuditFile(home);
  let apps = false;
  for (const entry of config.section(GATEWAY_SECTION)) {
    const fields = readLayer(entry, diagnostics);
    if (fields.expose?.allow) allow.push(fields.expose.allow);
    if (fields.expose?.deny) deny.push(...fields.expose.deny);
    // Either layer may choose: search mode changes how tools are shown, not which may run.
    if (fields.expose_mode) exposeMode = fields.expose_mode;
    if (entry.layer !== "user") {
      for (const key of GATEWAY_SECTION_SPEC.userOnly ?? [])
        if (key in fields) diagnostics.push(userOnlyWarning(entry, key));
      continue;
    }
    if (fields.rename) rename = fields.rename;
    if (fields.ask) ask = fields.ask;
    if (fields.apps !== undefined) apps = fields.apps;
    if (fields.audit !== undefined)
      audit = fields.audit === false ? false : path.resolve(home, expandHome(fields.audit, home));
  }
  if (options.expose?.allow) allow.push([...options.expose.allow]);
  if (options.expose?.deny) deny.push(...options.expose.deny);
  if (options.exposeMode) exposeMode = options.exposeMode;
  if (options.rename) rename = { ...options.rename };
  if (options.ask) ask = options.ask;
  if (options.audit !== undefined) audit = options.audit;
  if (options.apps !== undefined) apps = options.apps;
  return {
    settings: {
      expose: { allow, deny },
      exposeMode,
      rename: Object.entries(rename).map(([from, to]) => ({ from, to })),
      ask,
      audit,
      apps,
    },
    diagnostics,
  };
}

type Fields = SectionFields<typeof fieldSchemas>;

function readLayer(entry: SectionEntry, diagnostics: Diagnostic[]): Fields {
  return validateSectionFields(entry, fieldSchemas, {
    sectionKey: GATEWAY_SECTION,
    source: "gateway",
    failClosed: true,
    report: (diagnostic) => diagnostics.push(diagnostic),
  });
}

function userOnlyWarning(entry: SectionEntry, key: string): Diagnostic {
  const position = entry.locateKey?.([key]) ?? entry.locate([key]);
  const diagnostic: Diagnostic = {
    stage: "config",
    severity: "warning",
    code: "user_only_setting",
    layer: entry.layer,
    file: position.file,
    source: "gateway",
    message: `gateway.${key} counts only in your own config (~/${CONFIG_DIR}/config.yaml); the workspace's value is ignored.`,
  };
  if (position.line !== undefined) diagnostic.line = position.line;
  if (position.column !== undefined) diagnostic.column = position.column;
  return diagnostic;
}

function expandHome(file: string, home: string): string {
  return file === "~" || file.startsWith("~/") ? path.join(home, file.slice(1)) : file;
}
