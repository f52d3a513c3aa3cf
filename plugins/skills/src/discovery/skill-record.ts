import type { Diagnostic } from "@pseudoclaude/core";
import type { SkillLayerEntry, SkillLayerProvider } from "@pseudoclaude/core/plugin";
import type { SkillDocument } from "../format/skill-document.js";
import type { SkillLayer } from "./skill-roots.js";

/** One skill as discovery found it. */
export interface SkillRecord {
  name: string;
  layer: SkillLayer;
  /** Its SKILL.md; undefined for a skill defined in code. */
  file?: string;
  /** Its folder: bundled files, `SKILL_DIR` of its scripts. */
  dir?: string;
  /** What the file says; undefined when it could not be read as a skill (state `invalid`). */
  document?: SkillDocument;
  /** False when config or code disabled it (or `enabled` does not name it). */
  enabled: boolean;
  /** For a skill defined in code: its script files. Folder skills have `scripts/`. */
  scriptFiles?: string[];
  /** What discovery found wrong with this skill. */
  diagnostics: Diagnostic[];
  /**
   * For a skill of a catalog layer (an MCP server's): the layer and its listing. `document` is
   * then built from the listed front matter; the body is read, and checked, when it is loaded.
   */
  remote?: { layer: SkillLayerProvider; entry: SkillLayerEntry };
}
