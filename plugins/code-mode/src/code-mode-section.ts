import type { Diagnostic, LoadedConfig } from "@pseudoclaude/core";
import { type ConfigSectionSpec, validateSection, zodSchema } from "@pseudoclaude/core/plugin";
import type { z } from "zod";

/** Config key of code mode. */
export const CODE_MODE_SECTION = "code_mode";

/** Key by key, the project over the user (a mode or a limit: neither widens what may run). */
export const CODE_MODE_SECTION_SPEC: ConfigSectionSpec = {
  key: CODE_MODE_SECTION,
  owner: "code-mode",
};

/** `off`: no code tool. `on`: always offered. `auto`: offered where it pays (see codeModeWanted). */
export const CODE_MODE_MODES = ["off", "on", "auto"] as const;
export type CodeModeMode = (typeof CODE_MODE_MODES)[number];

/**
 * `code_mode: on`, or an object with the mode and the sandbox's limits. Every inner call is
 * decided by the policy whatever is set here: a limit bounds what one program may cost.
 */
export const codeModeSectionSchema = zodSchema((z) =>
  z.union([
    z.enum(CODE_MODE_MODES),
    z
      .object({
        mode: z.enum(CODE_MODE_MODES).optional(),
        memory_mb: z.number().int().min(1).max(1024).optional(),
        cpu_ms: z.number().int().positive().optional(),
        wall_ms: z.number().int().positive().optional(),
        max_calls: z.number().int().positive().optional(),
        max_concurrent_calls: z.number().int().positive().optional(),
        max_result_kb: z.number().int().positive().optional(),
        max_log_kb: z.number().int().positive().optional(),
      })
      .strict(),
  ]),
);

export type CodeModeSectionValue = z.infer<ReturnType<typeof codeModeSectionSchema>>;

/** The merged section: its mode, and the limits written in it. */
export interface CodeModeSettings {
  mode: CodeModeMode | undefined;
  memory_mb?: number | undefined;
  cpu_ms?: number | undefined;
  wall_ms?: number | undefined;
  max_calls?: number | undefined;
  max_concurrent_calls?: number | undefined;
  max_result_kb?: number | undefined;
  max_log_kb?: number | undefined;
}

/** Every layer's section, the more specific over the less, key by key; a bad one is reported and skipped. */
export function readCodeModeSection(
  config: LoadedConfig,
  report: (diagnostic: Diagnostic) => void,
): CodeModeSettings {
  let merged: CodeModeSettings = { mode: undefined };
  for (const entry of config.section(CODE_MODE_SECTION)) {
    const checked = validateSection(codeModeSectionSchema(), entry, {
      sectionKey: CODE_MODE_SECTION,
      source: "code-mode",
    });
    if (!checked.ok) {
      checked.diagnostics.forEach(report);
      continue;
    }
    const value = checked.value;
    merged = typeof value === "string" ? { ...merged, mode: value } : { ...merged, ...value };
  }
  return merged;
}
