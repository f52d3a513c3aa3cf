import type { SectionEntry } from "../config/config-layer.js";
import type { Diagnostic } from "../contracts/diagnostic.js";
import type { PermissionMode } from "../contracts/policy-engine.js";
import { ConfigError } from "../errors.js";

/** How far each mode lets calls through without asking, least first. */
export const MODE_REACH: Record<PermissionMode, number> = {
  plan: 0,
  default: 1,
  accept_edits: 2,
  bypass: 3,
};

/** The loosest mode the configuration allows, and what to do with a mode past it. */
export interface ModeLimits {
  /** Undefined: every mode is allowed. */
  maxMode: PermissionMode | undefined;
  /** Why `mode` is refused (code, the command line), or undefined when it is allowed. */
  refuse(mode: PermissionMode): ConfigError | undefined;
  /** `mode`, lowered to the limit when past it, with a diagnostic saying so. */
  clamp(mode: PermissionMode, report: (diagnostic: Diagnostic) => void): PermissionMode;
}

/**
 * The limits the layers set on the mode: a managed layer's mode is a ceiling no other layer
 * nor code may pass (an administrator's), and `disable_bypass` in any layer refuses `bypass`
 * (refusing narrows, so a workspace may say it too).
 */
export function modeLimits(
  read: ReadonlyArray<{
    entry: SectionEntry;
    values: { mode?: PermissionMode; disable_bypass?: boolean };
  }>,
): ModeLimits {
  let maxMode: PermissionMode | undefined;
  let setBy: { entry: SectionEntry; by: "managed_mode" | "no_bypass" } | undefined;
  const lower = (mode: PermissionMode, entry: SectionEntry, by: "managed_mode" | "no_bypass") => {
    if (maxMode === undefined || MODE_REACH[mode] < MODE_REACH[maxMode]) {
      maxMode = mode;
      setBy = { entry, by };
    }
  };
  for (const { entry, values } of read) {
    if (entry.managed && values.mode) lower(values.mode, entry, "managed_mode");
    if (values.disable_bypass === true) lower("accept_edits", entry, "no_bypass");
  }
  const why = () => {
    const where = setBy?.entry.managed
      ? `the managed settings (${setBy.entry.file})`
      : (setBy?.entry.file ?? "the configuration");
    return setBy?.by === "no_bypass"
      ? `bypass mode is disabled by ${where}`
      : `${where} allow at most "${maxMode}"`;
  };
  const past = (mode: PermissionMode) =>
    maxMode !== undefined && MODE_REACH[mode] > MODE_REACH[maxMode];
  return {
    maxMode,
    refuse(mode) {
      if (!past(mode)) return undefined;
      return new ConfigError("config_invalid", `Mode "${mode}" is not allowed: ${why()}.`, {
        details: { mode, maxMode, file: setBy?.entry.file },
      });
    },
    clamp(mode, report) {
      if (!past(mode) || maxMode === undefined) return mode;
      report({
        stage: "config",
        severity: "warning",
        code: "mode_limited",
        layer: setBy?.entry.layer ?? "user",
        ...(setBy
          ? setBy.entry.locate([setBy.by === "no_bypass" ? "disable_bypass" : "mode"])
          : {}),
        message: `The configured mode "${mode}" is lowered to "${maxMode}": ${why()}.`,
      });
      return maxMode;
    },
  };
}
