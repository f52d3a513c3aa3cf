import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import type { LineCounter } from "yaml";
import type { Diagnostic } from "../contracts/diagnostic.js";
import { errorMessage } from "../errors.js";
import { isPlainObject } from "../util/plain-object.js";
import type { ConfigLayer, ConfigPosition, LayerName, SectionEntry } from "./config-layer.js";

const require = createRequire(import.meta.url);

/** The YAML parser, loaded when a config file is first read (an agent without one never does). */
function yaml(): typeof import("yaml") {
  return require("yaml") as typeof import("yaml");
}

export const CONFIG_DIR = ".PseudoClaude";
/** YAML errors reported per file; more are summed up in one diagnostic. */
const MAX_YAML_ERRORS = 10;
export const CONFIG_FILE = "config.yaml";

export interface LoadConfigOptions {
  workspace: string;
  /** Home directory for the user layer; default `os.homedir()` (honours `$HOME`). */
  homeDir?: string | undefined;
  /** Explicit file paths, overriding the defaults. `null` disables a layer. */
  userFile?: string | null | undefined;
  projectFile?: string | null | undefined;
  /**
   * Other programs' files read as layers (Claude Code's settings, through
   * `@pseudoclaude/compat-claude-code`), by scope: `user` ones come before our user file,
   * `project` ones before our project file, `managed` ones after everything. Their problems
   * are the diagnostics they return.
   */
  foreignLayers?: ForeignLayers | undefined;
}

/** What {@link LoadConfigOptions.foreignLayers} reads, for one workspace and home. */
export type ForeignLayers = (
  workspace: string,
  homeDir: string,
) => {
  user: ConfigLayer[];
  project: ConfigLayer[];
  managed: ConfigLayer[];
  diagnostics: Diagnostic[];
};

/**
 * The layered configuration: user `~/.PseudoClaude/config.yaml`, then project
 * `<workspace>/.PseudoClaude/config.yaml`. Sections are read per layer; how layers combine
 * is up to the section's owner (whole-entry replacement for `mcp_servers`, lists that add up
 * for `permissions`).
 */
export class LoadedConfig {
  private readonly claimed = new Set<string>();

  constructor(
    readonly layers: readonly ConfigLayer[],
    readonly diagnostics: readonly Diagnostic[],
  ) {}

  /** The section's value in each layer that has it, user first. Marks the key as known. */
  section<T = unknown>(key: string): SectionEntry<T>[] {
    this.claimed.add(key);
    const entries: SectionEntry<T>[] = [];
    for (const layer of this.layers) {
      if (!layer.data || !(key in layer.data)) continue;
      entries.push({
        layer: layer.name,
        file: layer.file,
        ...(layer.origin ? { origin: layer.origin } : {}),
        ...(layer.managed ? { managed: true } : {}),
        value: layer.data[key] as T,
        locate: (subPath) => locate(layer, [key, ...subPath]),
        locateKey: (subPath) => locate(layer, [key, ...subPath], true),
      });
    }
    return entries;
  }

  /** Top-level keys that no plugin or core section asked for: likely typos. */
  unclaimedKeys(): Array<{ key: string; position: ConfigPosition; layer: LayerName }> {
    const out: Array<{ key: string; position: ConfigPosition; layer: LayerName }> = [];
    for (const layer of this.layers) {
      for (const key of Object.keys(layer.data ?? {})) {
        if (!this.claimed.has(key))
          out.push({ key, layer: layer.name, position: locate(layer, [key], true) });
      }
    }
    return out;
  }

  /** An empty configuration (no files), for code-only agents and tests. */
  static empty(): LoadedConfig {
    return new LoadedConfig([], []);
  }

  /** A configuration from in-memory YAML texts, as if read from files. */
  static fromTexts(texts: Partial<Record<LayerName, string>>): LoadedConfig {
    const diagnostics: Diagnostic[] = [];
    const layers: ConfigLayer[] = [];
    for (const name of ["user", "project"] as const) {
      const text = texts[name];
      if (text === undefined) continue;
      layers.push(parseLayer(name, `<${name}>`, text, diagnostics));
    }
    return new LoadedConfig(layers, diagnostics.map(blockingFileProblem));
  }
}

export function defaultConfigPaths(options: LoadConfigOptions): {
  user: string | null;
  project: string | null;
} {
  const home = options.homeDir ?? os.homedir();
  return {
    user:
      options.userFile === undefined ? path.join(home, CONFIG_DIR, CONFIG_FILE) : options.userFile,
    project:
      options.projectFile === undefined
        ? path.join(path.resolve(options.workspace), CONFIG_DIR, CONFIG_FILE)
        : options.projectFile,
  };
}

/**
 * Read both layers, and the foreign ones in their places. Never throws for file problems:
 * each becomes a diagnostic.
 */
export function loadConfig(options: LoadConfigOptions): LoadedConfig {
  const paths = defaultConfigPaths(options);
  const diagnostics: Diagnostic[] = [];
  const foreign = options.foreignLayers?.(
    path.resolve(options.workspace),
    options.homeDir ?? os.homedir(),
  );
  const layers: ConfigLayer[] = [];
  const seen = new Set<string>();
  for (const name of ["user", "project"] as const) {
    layers.push(...(foreign?.[name] ?? []));
    const file = paths[name];
    if (!file) continue;
    const resolved = path.resolve(file);
    // A workspace inside $HOME whose project file is the user file must not count twice.
    if (seen.has(resolved)) continue;
    seen.add(resolved);
    layers.push(readLayer(name, resolved, diagnostics));
  }
  layers.push(...(foreign?.managed ?? []));
  return new LoadedConfig(layers, [
    ...diagnostics.map(blockingFileProblem),
    ...(foreign?.diagnostics ?? []),
  ]);
}

/**
 * A config file that cannot be read whole may hold deny rules, guard hooks or a stricter mode:
 * going on without it would widen what the agent does, so its problems stop a run.
 */
function blockingFileProblem(diagnostic: Diagnostic): Diagnostic {
  return { ...diagnostic, blocking: true };
}

/**
 * One more file read as a config layer, for a plugin that reads a format other agents share
 * (the MCP plugin's `.mcp.json`). YAML or JSON (JSON is YAML), with positions for every value;
 * a missing file is an empty layer, a broken one a diagnostic.
 */
export function loadConfigFile(
  name: LayerName,
  file: string,
  /** How diagnostics name the file: `.mcp.json` (default: `the <layer> config`). */
  label?: string,
): LoadedConfig {
  const diagnostics: Diagnostic[] = [];
  const layer = readLayer(name, path.resolve(file), diagnostics, label);
  return new LoadedConfig([layer], diagnostics);
}

function readLayer(
  name: LayerName,
  file: string,
  diagnostics: Diagnostic[],
  label = `the ${name} config`,
): ConfigLayer {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
      diagnostics.push({
        stage: "config",
        severity: "error",
        code: "config_unreadable",
        layer: name,
        file,
        message: `Cannot read ${label.replace(/^the /, "")}: ${errorMessage(error)}`,
      });
    }
    return { name, file, exists: false };
  }
  return parseLayer(name, file, text, diagnostics, label);
}

function parseLayer(
  name: LayerName,
  file: string,
  text: string,
  diagnostics: Diagnostic[],
  label = `the ${name} config`,
): ConfigLayer {
  const { LineCounter, parseDocument } = yaml();
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  const layer: ConfigLayer = { name, file, exists: true, lineCounter };
  const broken = (line: number, column: number, why: string): ConfigLayer => {
    diagnostics.push({
      stage: "config",
      severity: "error",
      code: "config_yaml_error",
      layer: name,
      file,
      line,
      column,
      message: `Broken ${file.endsWith(".json") ? "JSON" : "YAML"} in ${label}; this layer is ignored: ${why}`,
    });
    return layer;
  };
  if (document.errors.length > 0) {
    // One mistake early in a file can make the parser report every line after it: the first
    // few are what a person fixes, the rest would bury them.
    for (const error of document.errors.slice(0, MAX_YAML_ERRORS)) {
      const position = lineCounter.linePos(error.pos[0]);
      broken(position.line, position.col, parserMessage(error.message));
    }
    const more = document.errors.length - MAX_YAML_ERRORS;
    if (more > 0) {
      const next = lineCounter.linePos(document.errors[MAX_YAML_ERRORS]!.pos[0]);
      broken(next.line, next.col, `and ${more} more problem${more === 1 ? "" : "s"} from here on`);
    }
    return layer;
  }
  let data: unknown;
  try {
    data = document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    // The parser refuses alias bombs (a billion laughs) and nesting deeper than its stack
    // only here, by throwing: a config file must never crash the agent, so it is a diagnostic.
    return broken(1, 1, parserMessage(errorMessage(error)));
  }
  if (data === null || data === undefined) {
    layer.data = {};
  } else if (isPlainObject(data)) {
    layer.data = data;
  } else {
    diagnostics.push({
      stage: "config",
      severity: "error",
      code: "config_not_mapping",
      layer: name,
      file,
      line: 1,
      column: 1,
      message: `${capitalised(label)} must be a mapping of sections (key: value); this layer is ignored.`,
    });
    return layer;
  }
  layer.document = document;
  return layer;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The parser's first line, in words a user can act on where the parser's own are opaque. */
function parserMessage(message: string): string {
  const first = message.split("\n")[0] ?? message;
  if (/maximum call stack/i.test(first)) return "it is nested too deeply to read";
  if (/alias count/i.test(first))
    return "its aliases expand to too many values (more than 100 uses of one anchor's contents)";
  return first;
}

/**
 * Position of a path in a layer: the deepest existing node on the path. `keyPosition` points
 * at the key instead of the value (for "unknown key" messages).
 */
function locate(
  layer: ConfigLayer,
  ourPath: ReadonlyArray<string | number>,
  keyPosition = false,
): ConfigPosition {
  const fullPath = layer.sourcePath ? layer.sourcePath(ourPath) : ourPath;
  const { document, lineCounter } = layer;
  if (!document || !lineCounter) return { file: layer.file };
  for (let depth = fullPath.length; depth > 0; depth--) {
    const prefix = fullPath.slice(0, depth);
    if (keyPosition && depth === fullPath.length) {
      const parent = depth === 1 ? document.contents : document.getIn(prefix.slice(0, -1), true);
      const key = findKeyNode(parent, prefix[prefix.length - 1]);
      if (key?.range) return position(layer.file, lineCounter, key.range[0]);
    }
    const node = document.getIn(prefix, true) as { range?: [number, number, number] } | undefined;
    if (node && typeof node === "object" && node.range)
      return position(layer.file, lineCounter, node.range[0]);
  }
  return { file: layer.file, line: 1, column: 1 };
}

function findKeyNode(
  parent: unknown,
  key: string | number | undefined,
): { range?: [number, number, number] } | undefined {
  const items = (
    parent as { items?: Array<{ key?: { value?: unknown; range?: [number, number, number] } }> }
  )?.items;
  if (!Array.isArray(items)) return undefined;
  return items.find((pair) => pair.key?.value === key)?.key;
}

function position(file: string, lineCounter: LineCounter, offset: number): ConfigPosition {
  const { line, col } = lineCounter.linePos(offset);
  return { file, line, column: col };
}
