import type { Disposable } from "@pseudoclaude/core/plugin";
import type { SkillRecord } from "../discovery/skill-record.js";
import type { SkillFiles } from "./bundled-files.js";
import type { SkillPermissions } from "./skill-permissions.js";
import type { LoadedSkill, SkillInfo, SkillLoader } from "./skills-manager.js";

/** What the manager keeps of a loaded skill, to answer for it and to take it off again. */
export interface LoadedEntry {
  by: SkillLoader;
  /** The skill as it was loaded, for the `unloaded` event of a skill whose folder is gone. */
  skill: SkillInfo;
  files: SkillFiles;
  /** The procedure as loaded (a catalog skill's is read at load, not at discovery). */
  body: string;
  tools: string[];
  /** What the tools and layer were built from; a rescan that changes it rebuilds them. */
  fingerprint: string;
  layer?: Disposable;
  section?: Disposable;
}

/** What a loaded skill's tools and policy layer were built from, compared after a rescan. */
export function fingerprint(
  record: SkillRecord,
  files: SkillFiles,
  permissions: SkillPermissions | undefined,
): string {
  return JSON.stringify([
    record.file,
    record.document,
    // A served skill whose listing changed (new digests) is read again.
    record.remote?.entry,
    files.scripts.map((script) => [script.file, script.tool]),
    permissions?.patterns,
    permissions?.honoured,
  ]);
}

/** What `load` answers for a loaded skill: the skill as it stands now, and what it brought. */
export function loadedSkill(
  skill: SkillInfo,
  entry: LoadedEntry,
  alreadyLoaded: boolean,
): LoadedSkill {
  return { skill, body: entry.body, files: entry.files.files, alreadyLoaded };
}
