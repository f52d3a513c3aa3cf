import type { Tool } from "@pseudoclaude/core";
import type { StaticToolSource } from "@pseudoclaude/core/plugin";
import type { SkillRecord } from "../discovery/skill-record.js";
import { loadSkillTool } from "../tools/load-skill-tool.js";
import { readSkillFileTool, type SkillFolderLookup } from "../tools/read-skill-file-tool.js";
import { LOAD_SKILL, READ_SKILL_FILE, UNLOAD_SKILL } from "../tools/skill-tool-names.js";
import { unloadSkillTool } from "../tools/unload-skill-tool.js";
import type { LoadedSkill } from "./skills-manager.js";

/** What the meta-tools do through the manager that owns the skills. */
export interface MetaToolsHost {
  /** The `skills` tool source the meta-tools join and leave. */
  source: StaticToolSource;
  /** `skills.read_max_bytes`: where `read_skill_file` cuts a file. */
  readMaxBytes: number;
  /** Load a skill the model asked for (`load_skill`). */
  load(skill: string, signal: AbortSignal): Promise<LoadedSkill>;
  unload(skill: string): boolean;
  /** The names of the skills loaded now. */
  loadedNames(): string[];
  folderOf(skill: string): SkillFolderLookup;
}

/**
 * `load_skill` (enum of what the model may load), `read_skill_file` and `unload_skill`, changed
 * on the source only when the loadable set, or whether any skill is loaded, changes.
 */
export class SkillMetaTools {
  private key = "";

  constructor(private readonly host: MetaToolsHost) {}

  update(loadable: readonly string[], anyLoaded: boolean): void {
    const key = `${loadable.join("\u0000")}|${anyLoaded}`;
    if (key === this.key) return;
    this.key = key;
    const host = this.host;
    const present = new Set(host.source.tools().map((tool) => tool.definition.name));
    const upsert: Tool[] = [];
    const remove: string[] = [];
    const [first, ...rest] = loadable;
    if (first !== undefined) upsert.push(loadSkillTool([first, ...rest], host.load));
    else if (present.has(LOAD_SKILL)) remove.push(LOAD_SKILL);
    const needed = first !== undefined || anyLoaded;
    if (needed && !present.has(READ_SKILL_FILE)) {
      upsert.push(
        readSkillFileTool(host.folderOf, host.readMaxBytes),
        unloadSkillTool((skill) => ({
          unloaded: host.unload(skill),
          loaded: host.loadedNames(),
        })),
      );
    }
    if (!needed)
      remove.push(...[READ_SKILL_FILE, UNLOAD_SKILL].filter((tool) => present.has(tool)));
    if (upsert.length > 0) host.source.upsert(...upsert);
    if (remove.length > 0) host.source.remove(...remove);
  }
}

/**
 * Where `read_skill_file` reads a skill's files: its folder, or its layer for a served skill.
 * Only a loaded skill's files are offered, so the model reads them after the procedure.
 */
export function skillFolder(
  skill: string,
  loaded: readonly string[],
  record: SkillRecord | undefined,
): SkillFolderLookup {
  if (!loaded.includes(skill))
    return {
      problem: `Skill "${skill}" is not loaded (loaded: ${loaded.join(", ") || "none"}); call ${LOAD_SKILL} first.`,
    };
  const remote = record?.remote;
  if (remote)
    return {
      remote: (file, signal) => remote.layer.readFile(remote.entry.key, file, signal),
    };
  const dir = record?.dir;
  return dir ? { dir } : { problem: `Skill "${skill}" has no folder of bundled files.` };
}
