import { isPlainObject } from "@pseudoclaude/core/plugin";

/** Claude Code's `defaultMode` values and the mode each is here. */
export const CLAUDE_DEFAULT_MODES: Readonly<Record<string, string>> = {
  default: "default",
  acceptEdits: "accept_edits",
  plan: "plan",
  bypassPermissions: "bypass",
  // Claude Code's classifier mode lets some calls through that `default` asks about: asking
  // instead is the nearest mode that is not looser. (`dontAsk`, stricter than every mode here,
  // has no such neighbour: it stops the run at its line.)
  auto: "default",
};

/** Keys of a settings file read here: by our sections, or by a plugin (hooks). */
const APPLIED = new Set([
  "permissions",
  "env",
  "model",
  "hooks",
  "disableAllHooks",
  "allowManagedHooksOnly",
  "$schema",
  "enableAllProjectMcpServers",
  "enabledMcpjsonServers",
  "disabledMcpjsonServers",
]);

/** Claude Code's keys on `.mcp.json` servers, and the `mcp_json` keys they are here. */
const MCP_JSON_KEYS: Readonly<Record<string, string>> = {
  enableAllProjectMcpServers: "enable_all",
  enabledMcpjsonServers: "enabled",
  disabledMcpjsonServers: "disabled",
};

/** Claude Code's switches over every hook, and the keys of our `hooks` section they are. */
const HOOKS_KEYS: Readonly<Record<string, string>> = {
  disableAllHooks: "disable_all",
  allowManagedHooksOnly: "managed_only",
};

/** Keys of `permissions` read here. */
const APPLIED_PERMISSIONS = new Set([
  "allow",
  "ask",
  "deny",
  "defaultMode",
  "disableBypassPermissionsMode",
  "additionalDirectories",
]);

/**
 * A settings file's values in our sections, and where each of our paths is in the file.
 * Rules pass unchanged: our rule syntax reads Claude Code's (`Bash(npm run test:*)`,
 * `Read(./.env)`, `mcp__github`). A value that does not fit (a `defaultMode` we do not have, a
 * rule that is not a string) also passes unchanged, so the section's own check reports it at
 * its line, and fails closed as it does for our own config.
 */
export function translateSettings(settings: Record<string, unknown>): {
  data: Record<string, unknown>;
  sourcePath(path: ReadonlyArray<string | number>): ReadonlyArray<string | number>;
} {
  const data: Record<string, unknown> = {};
  const permissions = settings.permissions;
  if (isPlainObject(permissions)) {
    const ours: Record<string, unknown> = {};
    for (const verdict of ["allow", "ask", "deny"] as const)
      if (permissions[verdict] !== undefined) ours[verdict] = permissions[verdict];
    const mode = permissions.defaultMode;
    if (mode !== undefined)
      ours.mode =
        typeof mode === "string" && Object.hasOwn(CLAUDE_DEFAULT_MODES, mode)
          ? CLAUDE_DEFAULT_MODES[mode]
          : mode;
    const bypass = permissions.disableBypassPermissionsMode;
    if (bypass !== undefined) ours.disable_bypass = bypass === "disable" ? true : bypass;
    data.permissions = ours;
    // Folders the tools may work in besides the workspace: the built-in tools' extra roots.
    if (permissions.additionalDirectories !== undefined)
      data.builtin_tools = { extra_roots: permissions.additionalDirectories };
  } else if (permissions !== undefined) data.permissions = permissions;
  // Variables for the processes tools start (not for this process: provider keys stay ours).
  if (settings.env !== undefined) data.env = settings.env;
  // Claude Code's model is a Claude model: the Anthropic provider's default, never another's.
  if (settings.model !== undefined) data.provider = { claude_model: settings.model };
  const mcpJson: Record<string, unknown> = {};
  for (const [theirs, ours] of Object.entries(MCP_JSON_KEYS))
    if (settings[theirs] !== undefined) mcpJson[ours] = settings[theirs];
  if (Object.keys(mcpJson).length > 0) data.mcp_json = mcpJson;
  // Claude Code's hooks are in our format already; its two switches are keys of our section.
  const hooks = settings.hooks;
  const switches = Object.entries(HOOKS_KEYS).filter(([theirs]) => settings[theirs] !== undefined);
  if (hooks !== undefined && !isPlainObject(hooks)) data.hooks = hooks;
  else if (hooks !== undefined || switches.length > 0)
    data.hooks = {
      ...(hooks as Record<string, unknown> | undefined),
      ...Object.fromEntries(switches.map(([theirs, ours]) => [ours, settings[theirs]])),
    };
  return { data, sourcePath };
}

/** Our path as the settings file writes it. */
function sourcePath(path: ReadonlyArray<string | number>): ReadonlyArray<string | number> {
  if (path[0] === "mcp_json") {
    const key = Object.entries(MCP_JSON_KEYS).find(([, ours]) => ours === path[1])?.[0];
    return key ? [key, ...path.slice(2)] : path;
  }
  if (path[0] === "builtin_tools" && path[1] === "extra_roots")
    return ["permissions", "additionalDirectories", ...path.slice(2)];
  if (path[0] === "provider" && path[1] === "claude_model") return ["model", ...path.slice(2)];
  if (path[0] === "hooks") {
    const key = Object.entries(HOOKS_KEYS).find(([, ours]) => ours === path[1])?.[0];
    if (key) return [key, ...path.slice(2)];
  }
  if (path[0] !== "permissions") return path;
  if (path[1] === "mode") return ["permissions", "defaultMode", ...path.slice(2)];
  if (path[1] === "disable_bypass")
    return ["permissions", "disableBypassPermissionsMode", ...path.slice(2)];
  return path;
}

/**
 * The settings of a file that nothing here reads, as `key` or `permissions.key`: reported once,
 * never dropped in silence.
 */
export function settingsNotApplied(settings: Record<string, unknown>): string[] {
  const out = Object.keys(settings).filter((key) => !APPLIED.has(key));
  if (isPlainObject(settings.permissions))
    for (const key of Object.keys(settings.permissions))
      if (!APPLIED_PERMISSIONS.has(key)) out.push(`permissions.${key}`);
  // Beside a `hooks` that is not a mapping (its own check reports it) the switches have no place.
  if (settings.hooks !== undefined && !isPlainObject(settings.hooks))
    out.push(...Object.keys(HOOKS_KEYS).filter((key) => settings[key] !== undefined));
  return out;
}
