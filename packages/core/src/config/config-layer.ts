import type { Document, LineCounter } from "yaml";

export type LayerName = "user" | "project";

/** One parsed config file. A missing file is an empty layer; a broken one has no document. */
export interface ConfigLayer {
  name: LayerName;
  file: string;
  exists: boolean;
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
  /** The raw value (plain data, as YAML parsed it). */
  value: T;
  /** Position of `path` inside this section (relative to the section key), best effort. */
  locate(path: ReadonlyArray<string | number>): ConfigPosition;
  /** Position of the key at the end of `path` (where a misspelt key is), best effort. */
  locateKey?(path: ReadonlyArray<string | number>): ConfigPosition;
}
