import type { Diagnostic, LoadedConfig } from "@pseudoclaude/core";
import {
  type ConfigSectionSpec,
  type SectionEntry,
  validateSectionFields,
  zodSchema,
} from "@pseudoclaude/core/plugin";

/**
 * Config section `mcp_json`: which of a workspace's `.mcp.json` servers start, as Claude Code's
 * `enableAllProjectMcpServers`, `enabledMcpjsonServers` and `disabledMcpjsonServers` say (a
 * Claude Code settings file's keys arrive here; our own config may set them too).
 */
export const MCP_JSON_SECTION = "mcp_json";

export const MCP_JSON_SECTION_SPEC: ConfigSectionSpec = {
  key: MCP_JSON_SECTION,
  owner: "mcp",
  additive: ["enabled", "disabled"],
};

const fields = zodSchema((z) => ({
  enable_all: z.boolean(),
  enabled: z.array(z.string().min(1)),
  disabled: z.array(z.string().min(1)),
}));

/** What the layers chose about `.mcp.json` servers. */
export interface McpJsonChoices {
  /** The user approved every `.mcp.json` server of every workspace. */
  all: boolean;
  /** `.mcp.json` servers the user approved by name. */
  enabled: ReadonlySet<string>;
  /** `.mcp.json` servers no layer wants started. */
  disabled: ReadonlySet<string>;
}

/**
 * The choices of every layer. Approving is the user's: only the user's own files (and
 * managed settings) count for `enable_all` and `enabled`, which are consent to run what a
 * repository carries; a repository saying it about itself consents to nothing, and is told
 * so. Refusing narrows, so `disabled` counts from any layer.
 */
export function readMcpJsonChoices(
  config: LoadedConfig,
  report: (diagnostic: Diagnostic) => void,
): McpJsonChoices {
  let all = false;
  const enabled = new Set<string>();
  const disabled = new Set<string>();
  for (const entry of config.section(MCP_JSON_SECTION)) {
    const values = validateSectionFields(entry, fields(), {
      source: "mcp",
      sectionKey: MCP_JSON_SECTION,
      report,
      failClosed: false,
    }) as { enable_all?: boolean; enabled?: string[]; disabled?: string[] };
    for (const name of values.disabled ?? []) disabled.add(name);
    if (entry.layer === "user") {
      if (values.enable_all !== undefined) all = values.enable_all;
      for (const name of values.enabled ?? []) enabled.add(name);
    } else if (values.enable_all === true || (values.enabled?.length ?? 0) > 0)
      report(notConsent(entry, values.enable_all === true ? "enable_all" : "enabled"));
  }
  return { all, enabled, disabled };
}

function notConsent(entry: SectionEntry, key: string): Diagnostic {
  const position = entry.locate([key]);
  return {
    stage: "config",
    severity: "warning",
    code: "mcp_json_choice_ignored",
    layer: entry.layer,
    source: "mcp",
    ...position,
    message: `The workspace's ${entry.file} enables its own .mcp.json servers; that is not your consent, so they still wait for it (pseudoclaude mcp approve, or enableAllProjectMcpServers / enabledMcpjsonServers in your own ~/.claude/settings.json).`,
  };
}
