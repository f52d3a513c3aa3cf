import type { Document, LineCounter } from "yaml";

export type LayerName = "user" | "project";

/**
 * One parsed config file. A missing file is an empty layer; a broken one has no document.
 * `name` is whose the file is, which decides what it may widen: `user` (the user's own files,
 * trusted) or `project` (what the workspace carries, consent first).
 */
export interface ConfigLayer {
  name: LayerName;
  file: string;
  exists: boolean;
  /**
   * Another program's file read as config (`claude-code`: Claude Code's settings), its values
   * translated into our sections; absent for our own config files.
   */
  origin?: "claude-code" | undefined;
  /**
   * Set by an administrator for every user of the machine (Claude Code's managed settings):
   * the layer comes last, and its mode and rules cannot be loosened by any other.
   */
  managed?: boolean | undefined;
  /**
   * Where a path of our sections is in the file when its format names it otherwise
   * (`permissions.mode` is `permissions.defaultMode` in a Claude Code settings file).
   */
  sourcePath?:
    | ((path: ReadonlyArray<string | number>) => ReadonlyArray<string | number>)
    | undefined;
  /**
   * Settings of another program's file that nothing here applies (Claude Code's `statusLine`):
   * `pseudoclaude config` lists them, so none is dropped in silence.
   */
  notApplied?: readonly string[] | undefined;
  /** Undefined when the file is missing or could not be parsed. */
  data?: Record<string, unknown>;
  document?: Document.Parsed;
  lineCounter?: LineCounter;
}

/** A position in a config file, 1-based. */
export interface ConfigPosition {
  file: string;
  line?: number;
  column?: number;
}

/** A section's value in one layer, with a way to point at any path inside it. */
export interface SectionEntry<T = unknown> {
  layer: LayerName;
  file: string;
  /** The layer's origin (another program's file), when it is not our own config. */
  origin?: ConfigLayer["origin"];
  /** The layer is managed (see {@link ConfigLayer.managed}). */
  managed?: boolean | undefined;
  /** The raw value (plain data, as YAML parsed it). */
  value: T;
  /** Position of `path` inside this section (relative to the section key), best effort. */
  locate(path: ReadonlyArray<string | number>): ConfigPosition;
  /** Position of the key at the end of `path` (where a misspelt key is), best effort. */
  locateKey?(path: ReadonlyArray<string | number>): ConfigPosition;
}
