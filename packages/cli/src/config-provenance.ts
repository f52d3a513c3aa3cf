import type { LoadedConfig } from "@pseudoclaude/core";
import {
  type ConfigSectionSpec,
  isPlainObject,
  isSecretName,
  REDACTED,
  type SectionEntry,
} from "@pseudoclaude/core/plugin";
import { MCP_SECTION } from "@pseudoclaude/plugin-mcp";

/** One value of the merged configuration and where it came from. */
export interface ValueOrigin {
  /** Dotted path, list items by index: `permissions.allow[1]`, `mcp_servers.docs.url`. */
  path: string;
  value: unknown;
  layer: string;
  file: string;
  line?: number;
  column?: number;
}

export interface MergedConfig {
  /** The configuration as the plugins read it, secrets redacted. */
  config: Record<string, unknown>;
  /** Every leaf value with its file and line. */
  values: ValueOrigin[];
  /** Values a layer set that do not count, and why. */
  ignored: Array<ValueOrigin & { reason: string }>;
}

/** How the sections' owners combine layers, from the owners' own declarations. */
interface MergeRules {
  /** `section.key` paths whose lists add up across layers. */
  additive: Set<string>;
  /** `section.key` paths only the user's own config may set. */
  userOnly: Set<string>;
  /** Sections of named entries that a more specific layer replaces whole. */
  entries: Set<string>;
  /** Section -> the key on which a layer with another value stands alone. */
  standsAlone: Map<string, string>;
}

function mergeRules(sections: readonly ConfigSectionSpec[]): MergeRules {
  const rules: MergeRules = {
    additive: new Set(),
    userOnly: new Set(),
    entries: new Set(),
    standsAlone: new Map(),
  };
  for (const section of sections) {
    for (const key of section.additive ?? []) rules.additive.add(`${section.key}.${key}`);
    for (const key of section.userOnly ?? []) rules.userOnly.add(`${section.key}.${key}`);
    if (section.entries) rules.entries.add(section.key);
    if (section.standsAloneOn) rules.standsAlone.set(section.key, section.standsAloneOn);
  }
  return rules;
}
/**
 * The configuration merged from its layers in order (user, `.mcp.json`, project), as each
 * section's owner declares it combines them (`sections`: the kernel's and every plugin's), with,
 * for every value, the file and line it came from. Values of `env` and `headers` and of
 * secret-looking keys are redacted unless they are `${VAR}` templates.
 */
export function mergeWithOrigins(
  config: LoadedConfig,
  mcpJson: readonly SectionEntry[],
  sections: readonly ConfigSectionSpec[],
): MergedConfig {
  const rules = mergeRules(sections);
  const merged: Record<string, unknown> = {};
  const origins = new Map<string, ValueOrigin>();
  const ignored: MergedConfig["ignored"] = [];
  const keys = new Set(config.layers.flatMap((layer) => Object.keys(layer.data ?? {})));
  if (mcpJson.length > 0) keys.add(MCP_SECTION);
  for (const key of keys) {
    const entries = config.section(key);
    const ordered =
      key === MCP_SECTION
        ? [
            ...entries.filter((entry) => entry.layer === "user"),
            ...mcpJson,
            ...entries.filter((entry) => entry.layer !== "user"),
          ]
        : entries;
    const alone = rules.standsAlone.get(key);
    for (const entry of ordered) {
      // A layer that names another provider stands alone: the other's model would not fit.
      const current = merged[key];
      if (
        alone !== undefined &&
        isPlainObject(entry.value) &&
        isPlainObject(current) &&
        entry.value[alone] !== undefined &&
        entry.value[alone] !== current[alone]
      ) {
        delete merged[key];
        forget(origins, key);
      }
      apply(merged, key, entry.value, [], entry, origins, ignored, rules);
    }
  }
  ignored.push(...notApplied(config));
  return { config: merged, values: [...origins.values()], ignored };
}

/** Settings of other programs' files (Claude Code's) that nothing here applies. */
function notApplied(config: LoadedConfig): MergedConfig["ignored"] {
  return config.layers.flatMap((layer) =>
    (layer.notApplied ?? []).map((dotted) => {
      const keys = dotted.split(".");
      const node = layer.document?.getIn(keys, true) as
        | { range?: [number, number, number]; toJSON?: () => unknown }
        | undefined;
      const at =
        node?.range && layer.lineCounter ? layer.lineCounter.linePos(node.range[0]) : undefined;
      return {
        path: dotted,
        value: redact(node?.toJSON ? node.toJSON() : node, keys),
        layer: layer.managed ? "managed" : layer.name,
        file: layer.file,
        ...(at ? { line: at.line, column: at.col } : {}),
        reason: "a Claude Code setting not applied here (docs/claude-code.md)",
      };
    }),
  );
}

function apply(
  target: Record<string, unknown>,
  key: string,
  value: unknown,
  at: Array<string | number>,
  entry: SectionEntry,
  origins: Map<string, ValueOrigin>,
  ignored: MergedConfig["ignored"],
  rules: MergeRules,
): void {
  const fullPath = [...at, key];
  const dotted = dottedPath(fullPath);
  if (rules.userOnly.has(dotted) && entry.layer !== "user") {
    for (const leaf of leaves(value, fullPath, entry))
      ignored.push({ ...leaf, reason: "only the user's own config may set this" });
    return;
  }
  // `mcp_servers.<name>`: a more specific layer replaces the server entry whole.
  const replacesWhole = at.length === 1 && rules.entries.has(String(at[0]));
  if (isPlainObject(value) && !replacesWhole) {
    const current = target[key];
    const child: Record<string, unknown> = isPlainObject(current) ? current : {};
    if (!isPlainObject(current)) forget(origins, dotted);
    target[key] = child;
    for (const [name, inner] of Object.entries(value))
      apply(child, name, inner, fullPath, entry, origins, ignored, rules);
    return;
  }
  const shown = redact(value, fullPath);
  if (rules.additive.has(dotted) && Array.isArray(value) && Array.isArray(target[key])) {
    const list = target[key] as unknown[];
    const offset = list.length;
    list.push(...(shown as unknown[]));
    for (const leaf of leaves(value, fullPath, entry, offset)) origins.set(leaf.path, leaf);
    return;
  }
  forget(origins, dotted);
  target[key] = Array.isArray(shown) ? [...shown] : shown;
  for (const leaf of leaves(value, fullPath, entry)) origins.set(leaf.path, leaf);
}

/** Every leaf under `value`, located in its file; list items by index from `offset`. */
function leaves(
  value: unknown,
  fullPath: Array<string | number>,
  entry: SectionEntry,
  offset = 0,
): ValueOrigin[] {
  if (Array.isArray(value)) {
    if (value.length === 0) return [origin(fullPath, [], entry)];
    return value.flatMap((item, index) =>
      leaves(item, [...fullPath, index], entry).map((leaf) =>
        offset === 0 ? leaf : { ...leaf, path: reindex(leaf.path, fullPath, index + offset) },
      ),
    );
  }
  if (isPlainObject(value) && Object.keys(value).length > 0)
    return Object.entries(value).flatMap(([name, inner]) =>
      leaves(inner, [...fullPath, name], entry),
    );
  return [origin(fullPath, value, entry)];
}

function origin(
  fullPath: Array<string | number>,
  value: unknown,
  entry: SectionEntry,
): ValueOrigin {
  // The section key is the first element; positions are relative to it.
  const position = entry.locate(fullPath.slice(1));
  const found: ValueOrigin = {
    path: dottedPath(fullPath),
    value: redact(value, fullPath),
    // An administrator's value says so: no other layer can loosen it.
    layer: entry.managed ? "managed" : entry.layer,
    file: position.file,
  };
  if (position.line !== undefined) found.line = position.line;
  if (position.column !== undefined) found.column = position.column;
  return found;
}

function reindex(pathText: string, listPath: Array<string | number>, index: number): string {
  const prefix = dottedPath(listPath);
  const rest = pathText.slice(prefix.length).replace(/^\[\d+\]/, "");
  return `${prefix}[${index}]${rest}`;
}

function forget(origins: Map<string, ValueOrigin>, dotted: string): void {
  for (const key of [...origins.keys()])
    if (key === dotted || key.startsWith(`${dotted}.`) || key.startsWith(`${dotted}[`))
      origins.delete(key);
}

/** Redact secrets: env and header values, and secret-looking keys, unless a `${VAR}` template. */
function redact(value: unknown, fullPath: Array<string | number>): unknown {
  if (Array.isArray(value)) return value.map((item, index) => redact(item, [...fullPath, index]));
  if (isPlainObject(value))
    return Object.fromEntries(
      Object.entries(value).map(([name, inner]) => [name, redact(inner, [...fullPath, name])]),
    );
  if (typeof value !== "string" || /^\$\{[A-Za-z_][A-Za-z0-9_]*(:-[^}]*)?\}$/.test(value))
    return value;
  const names = fullPath.filter((part): part is string => typeof part === "string");
  const parent = names[names.length - 2];
  const own = names[names.length - 1] ?? "";
  const secret =
    (parent === "env" || parent === "headers") && names.length >= 3
      ? true
      : // A `*_env` key names the variable that holds a secret, not the secret.
        isSecretName(own) && !/_env$/.test(own);
  return secret ? REDACTED : value;
}

function dottedPath(parts: ReadonlyArray<string | number>): string {
  return parts
    .map((part, index) =>
      typeof part === "number" ? `[${part}]` : index === 0 ? part : `.${part}`,
    )
    .join("");
}
