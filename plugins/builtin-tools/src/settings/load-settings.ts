import { realpathSync, statSync } from "node:fs";
import path from "node:path";
import { type Diagnostic, type LoadedConfig } from "@pseudoclaude/core";
import {
  type ConsentSubject,
  consentSubject,
  needsConsentDiagnostic,
  type WideningSetting,
  type WorkspaceConsent,
} from "@pseudoclaude/core/consent";
import {
  isPlainObject,
  type SectionEntry,
  validateSection,
  validateSectionFields,
} from "@pseudoclaude/core/plugin";
import {
  BUILTIN_TOOLS_SECTION,
  BUILTIN_TOOLS_SECTION_SPEC,
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
  env?: Record<string, string | number | boolean>;
}

/** The consent subject of a workspace's extra roots and shell. */
export const BUILTIN_TOOLS_SUBJECT = "builtin_tools";

/** The built-in tools' settings a workspace may use only with the user's consent. */
export const BUILTIN_TOOLS_WIDENING: readonly WideningSetting[] = [
  {
    setting: "builtin_tools.extra_roots",
    kind: "setting",
    effect: "lets read_file, which never asks, read folders outside the workspace (~/.ssh)",
  },
  {
    setting: "builtin_tools.env",
    kind: "setting",
    effect:
      "sets variables for every shell command (PATH, LD_PRELOAD) that decide what a command you allowed runs",
  },
  {
    setting: "builtin_tools.shell",
    kind: "setting",
    effect: "runs every shell command, even one you allowed, through a program it picks",
  },
];

/**
 * Combine the `builtin_tools` section of the user and project layers with code options.
 * `extra_roots` add up (user, project, code); every other key comes from the most specific
 * place that sets it (code, then project, then user). The section can restrict what the tools
 * reach, so it fails closed: a bad key is a blocking diagnostic at its position. The
 * workspace's `extra_roots` and `shell` count only once the user approved them
 * (`setting:builtin_tools`, through `consent`; without it, never).
 */
export function loadBuiltinToolsSettings(
  config: LoadedConfig,
  options: { workspace: string; code?: BuiltinToolsOptions; consent?: WorkspaceConsent },
): LoadedSettings {
  const diagnostics: Diagnostic[] = [];
  const scalars: Scalars = {};
  const roots: string[] = [];
  const entries = config.section(BUILTIN_TOOLS_SECTION);
  // The workspace's files (ours, Claude Code's `additionalDirectories`) are one question.
  const subject = workspaceSubject(entries);
  const approved = !subject || options.consent?.isApproved(subject) === true;
  for (const entry of entries) {
    if (entry.layer === "user") {
      readLayer(entry, options.workspace, scalars, roots, diagnostics);
      continue;
    }
    const layerScalars: Scalars = {};
    const layerRoots: string[] = [];
    readLayer(entry, options.workspace, layerScalars, layerRoots, diagnostics);
    if (subject && !approved && builtinToolsSubject(entry.value)) {
      delete layerScalars.shell;
      delete layerScalars.env;
      layerRoots.length = 0;
      diagnostics.push(
        needsConsentDiagnostic(subject, entry, {
          source: SOURCE,
          what: `The workspace's ${subject.summary} would ${subject.effects?.join(" and ")}; left out`,
        }),
      );
    }
    // Variables add up key by key, the later layer's value winning, as Claude Code merges env.
    const env = { ...scalars.env, ...layerScalars.env };
    Object.assign(scalars, layerScalars);
    if (Object.keys(env).length > 0) scalars.env = env;
    roots.push(...layerRoots);
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
  if (scalars.env)
    settings.env = Object.fromEntries(
      Object.entries(scalars.env).map(([name, value]) => [name, String(value)]),
    );
  const timeout = code.commandTimeoutMs ?? scalars.command_timeout_ms;
  if (timeout !== undefined) settings.commandTimeoutMs = timeout;
  return { settings, diagnostics };
}

/** What a workspace's section asks for beyond the user's, or undefined when nothing widens. */
export function builtinToolsConsentRequest(config: LoadedConfig): ConsentSubject | undefined {
  return workspaceSubject(config.section(BUILTIN_TOOLS_SECTION));
}

/** What the workspace's layers ask for together: their extra roots, their last shell. */
function workspaceSubject(entries: readonly SectionEntry[]): ConsentSubject | undefined {
  const roots: unknown[] = [];
  let shell: unknown;
  let env: Record<string, unknown> | undefined;
  for (const entry of entries) {
    if (entry.layer === "user" || !isPlainObject(entry.value)) continue;
    if (Array.isArray(entry.value.extra_roots)) roots.push(...entry.value.extra_roots);
    if (entry.value.shell !== undefined) shell = entry.value.shell;
    if (isPlainObject(entry.value.env)) env = { ...env, ...entry.value.env };
  }
  return builtinToolsSubject({
    extra_roots: roots,
    ...(shell !== undefined ? { shell } : {}),
    ...(env !== undefined ? { env } : {}),
  });
}

function builtinToolsSubject(value: unknown): ConsentSubject | undefined {
  if (!isPlainObject(value)) return undefined;
  const roots = Array.isArray(value.extra_roots) ? value.extra_roots : [];
  const shell = value.shell;
  const env = isPlainObject(value.env) ? value.env : undefined;
  const names = env ? Object.keys(env) : [];
  if (roots.length === 0 && shell === undefined && names.length === 0) return undefined;
  const parts = [
    ...(roots.length > 0 ? [`extra_roots ${roots.map(String).join(", ")}`] : []),
    ...(shell !== undefined ? [`shell ${String(shell)}`] : []),
    ...(names.length > 0 ? [`env ${names.join(", ")}`] : []),
  ];
  return consentSubject({
    kind: "setting",
    name: BUILTIN_TOOLS_SUBJECT,
    // `env` only when set: a subject approved before it existed keeps its digest.
    covers: { extra_roots: roots, shell: shell ?? null, ...(env ? { env } : {}) },
    summary: parts.join("; "),
    effects: [
      ...(roots.length > 0
        ? [`let read_file, which never asks, read ${roots.map(String).join(", ")}`]
        : []),
      ...(shell !== undefined ? [`run every shell command through ${String(shell)}`] : []),
      ...(names.length > 0 ? [`set ${names.join(", ")} for every command`] : []),
    ],
  });
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
    failClosed: BUILTIN_TOOLS_SECTION_SPEC.restricts ?? false,
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
