import type { Diagnostic } from "@pseudoclaude/core";
import type { SectionEntry } from "@pseudoclaude/core/plugin";
import { DISABLE_ALL_KEY, MANAGED_ONLY_KEY } from "./hook-events.js";

/**
 * Whose a hook is: an administrator's (Claude Code's managed settings), the user's own files, or
 * what the workspace carries. A switch reaches by it, and only the workspace's hooks need consent.
 */
export type HookScope = "managed" | "user" | "project";

/** The scope of a hooks section, from its layer. */
export function hookScope(source: Pick<SectionEntry, "layer" | "managed">): HookScope {
  return source.managed ? "managed" : source.layer;
}

/** The switches of one layer's hooks section, once the section fits the format. */
export interface HookSwitchValues {
  [DISABLE_ALL_KEY]?: boolean | undefined;
  [MANAGED_ONLY_KEY]?: boolean | undefined;
}

/** A switch that is on: where it is set, and whose hooks it turns off. */
interface Switch {
  key: typeof DISABLE_ALL_KEY | typeof MANAGED_ONLY_KEY;
  source: SectionEntry;
  off: readonly HookScope[];
}

/**
 * How far `disable_all` reaches from each scope: its own hooks and those below it, never above,
 * so a file can only narrow what its owner may narrow.
 */
const DISABLE_ALL_REACH: Readonly<Record<HookScope, readonly HookScope[]>> = {
  managed: ["managed", "user", "project"],
  user: ["user", "project"],
  project: ["project"],
};

/** The strongest switch answers for a hook: the administrator's, then the user's, then the workspace's. */
const SCOPE_ORDER: readonly HookScope[] = ["managed", "user", "project"];

/**
 * The hooks that still run once every layer's switches are applied. `disable_all` reaches as far
 * as its file may narrow: managed settings' turns every hook off; a user file's (ours or Claude
 * Code's) the user's and the workspace's but not the administrator's; a workspace file's only
 * the workspace's, since a repository able to switch off the user's guard hooks would widen what
 * the agent does. `managed_only` is the administrator's alone, as in Claude Code, which reads
 * `allowManagedHooksOnly` only from managed settings: from any other file it is ignored, with a
 * warning. What a switch turned off is said once, with how many hooks and which switch, so no
 * hook stops running without a word.
 */
export function applyHookSwitches<H extends { layer: HookScope }>(
  commands: readonly H[],
  sections: ReadonlyArray<{ source: SectionEntry; value: HookSwitchValues }>,
  report: (diagnostic: Diagnostic) => void,
): H[] {
  const on: Switch[] = [];
  const byScope = [...sections].sort(
    (a, b) => SCOPE_ORDER.indexOf(hookScope(a.source)) - SCOPE_ORDER.indexOf(hookScope(b.source)),
  );
  for (const { source, value } of byScope) {
    const scope = hookScope(source);
    if (value[DISABLE_ALL_KEY] === true)
      on.push({ key: DISABLE_ALL_KEY, source, off: DISABLE_ALL_REACH[scope] });
    if (value[MANAGED_ONLY_KEY] !== true) continue;
    if (scope === "managed") on.push({ key: MANAGED_ONLY_KEY, source, off: ["user", "project"] });
    else
      report({
        stage: "config",
        severity: "warning",
        code: "hooks_managed_only_ignored",
        layer: source.layer,
        source: "hooks",
        item: switchName(source, MANAGED_ONLY_KEY),
        ...(source.locateKey ?? source.locate)([MANAGED_ONLY_KEY]),
        message: `${switchName(source, MANAGED_ONLY_KEY)} in ${source.file} is ignored: only managed settings (an administrator's file) can let managed hooks alone run, as in Claude Code.`,
      });
  }
  if (on.length === 0) return [...commands];
  const turnedOff = new Map<Switch, number>();
  const running = commands.filter((command) => {
    const by = on.find((item) => item.off.includes(command.layer));
    if (!by) return true;
    turnedOff.set(by, (turnedOff.get(by) ?? 0) + 1);
    return false;
  });
  for (const [item, count] of turnedOff) {
    const name = switchName(item.source, item.key);
    report({
      stage: "config",
      severity: "info",
      code: "hooks_disabled",
      layer: item.source.layer,
      source: "hooks",
      item: name,
      ...(item.source.locateKey ?? item.source.locate)([item.key]),
      message: `${count} hook${count === 1 ? " does" : "s do"} not run: ${name} in ${item.source.file} ${effect(item)}.`,
    });
  }
  return running;
}

/** The switch as its file writes it: Claude Code's name in its settings, ours in our config. */
function switchName(source: SectionEntry, key: Switch["key"]): string {
  if (source.origin !== "claude-code") return `hooks.${key}`;
  return key === DISABLE_ALL_KEY ? "disableAllHooks" : "allowManagedHooksOnly";
}

function effect(item: Switch): string {
  if (item.key === MANAGED_ONLY_KEY) return "(managed settings) lets only managed hooks run";
  switch (hookScope(item.source)) {
    case "managed":
      return "(managed settings) turns every hook off";
    case "user":
      return "turns off your hooks and the workspace's; managed hooks still run";
    case "project":
      return "turns off the workspace's hooks; yours still run, as a workspace cannot turn them off";
  }
}
