import { realpathSync, statSync } from "node:fs";
import path from "node:path";
import { type Diagnostic, type LoadedConfig } from "@pseudoclaude/core";
import {
  type SectionEntry,
  validateSection,
  validateSectionFields,
} from "@pseudoclaude/core/plugin";
import {
  BUILTIN_TOOLS_SECTION,
  extraRootSchema,
  sectionFieldSchemas,
} from "./builtin-tools-section.js";
import {
  type BuiltinToolsOptions,
  type BuiltinToolsSettings,
  DEFAULT_KILL_GRACE_MS,
  DEFAULT_MAX_OUTPUT_CHARS,
  DEFAULT_SHELL,
} from "./builtin-tools-settings.js";

const SOURCE = "builtin-tools";

export interface LoadedSettings {
  settings: BuiltinToolsSettings;
  diagnostics: Diagnostic[];
}

interface Scalars {
  max_output_chars?: number;
  command_timeout_ms?: number;
  shell?: string;
}

/**
 * Combine the `builtin_tools` section of the user and project layers with code options.
 * `extra_roots` add up (user, project, code); every other key comes from the most specific
 * place that sets it (code, then project, then user). A bad key is skipped with a diagnostic
 * at its position; the layer's other keys still count.
 */
export function loadBuiltinToolsSettings(
  config: LoadedConfig,
  options: { workspace: string; code?: BuiltinToolsOptions },
): LoadedSettings {
  const diagnostics: Diagnostic[] = [];
  const scalars: Scalars = {};
  const roots: string[] = [];
  for (const entry of config.section(BUILTIN_TOOLS_SECTION)) {
    readLayer(entry, options.workspace, scalars, roots, diagnostics);
  }
  const code = options.code ?? {};
  for (const root of code.extraRoots ?? []) {
    const resolved = resolveRoot(root, options.workspace);
    if (typeof resolved === "string") roots.push(resolved);
    else diagnostics.push({ ...resolved, layer: "code" });
  }
  const settings: BuiltinToolsSettings = {
    extraRoots: [...new Set(roots)],
    maxOutputChars: code.maxOutputChars ?? scalars.max_output_chars ?? DEFAULT_MAX_OUTPUT_CHARS,
    shell: code.shell ?? scalars.shell ?? DEFAULT_SHELL,
    killGraceMs: code.killGraceMs ?? DEFAULT_KILL_GRACE_MS,
  };
  const timeout = code.commandTimeoutMs ?? scalars.command_timeout_ms;
  if (timeout !== undefined) settings.commandTimeoutMs = timeout;
  return { settings, diagnostics };
}

function readLayer(
  entry: SectionEntry,
  workspace: string,
  scalars: Scalars,
  roots: string[],
  diagnostics: Diagnostic[],
): void {
  validateSectionFields(entry, sectionFieldSchemas, {
    source: SOURCE,
    sectionKey: BUILTIN_TOOLS_SECTION,
    report: (diagnostic) => diagnostics.push(diagnostic),
    onField(key, value) {
      if (key === "extra_roots")
        readRoots(entry, value as unknown[], workspace, roots, diagnostics);
      else (scalars as Record<string, unknown>)[key] = value;
    },
  });
}

function readRoots(
  entry: SectionEntry,
  values: unknown[],
  workspace: string,
  roots: string[],
  diagnostics: Diagnostic[],
): void {
  values.forEach((value, index) => {
    const checked = validateSection(extraRootSchema, entry, {
      path: ["extra_roots", index],
      value,
      source: SOURCE,
      sectionKey: BUILTIN_TOOLS_SECTION,
    });
    if (!checked.ok) {
      diagnostics.push(...checked.diagnostics);
      return;
    }
    const resolved = resolveRoot(checked.value, workspace);
    if (typeof resolved === "string") roots.push(resolved);
    else
      diagnostics.push({
        ...resolved,
        layer: entry.layer,
        ...entry.locate(["extra_roots", index]),
      });
  });
}

/**
 * The real path of an extra root (absolute, or relative to the workspace). Real, so that a
 * symlink check later compares like with like.
 */
function resolveRoot(root: string, workspace: string): string | Diagnostic {
  const absolute = path.resolve(workspace, root);
  try {
    if (statSync(absolute).isDirectory()) return realpathSync(absolute);
  } catch {
    // Reported below.
  }
  return {
    stage: "config",
    severity: "warning",
    code: "extra_root_missing",
    source: SOURCE,
    item: root,
    message: `${BUILTIN_TOOLS_SECTION}.extra_roots: "${root}" (${absolute}) is not a directory; ignored.`,
  };
}
