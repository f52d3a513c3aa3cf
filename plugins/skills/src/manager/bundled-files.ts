import { lstat, readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";
import type { Diagnostic } from "@pseudoclaude/core";
import { hashedToolName, MAX_TOOL_NAME_LENGTH, sanitizeToolName } from "@pseudoclaude/core/plugin";
import { SKILL_FILE } from "../discovery/scan-skills.js";
import type { SkillRecord } from "../discovery/skill-record.js";
import { SKILLS_SOURCE } from "../format/parse-skill-file.js";
import type { BundledFile } from "./skills-manager.js";

/** A listing stops here: a skill's folder is documentation, not a repository. */
const MAX_FILES = 500;
const MAX_DEPTH = 8;

/** An executable file a loaded skill offers as a tool. */
export interface ScriptFile {
  /** Real path, inside the skill's folder (or a code skill's own file). */
  file: string;
  /** As shown to the model: `scripts/extract.py`. */
  display: string;
  tool: string;
}

export interface SkillFiles {
  files: BundledFile[];
  scripts: ScriptFile[];
  /** Files left out of the listing because it reached its cap. */
  omitted: number;
}

/**
 * List a skill's folder without reading any file: paths and sizes, and which files of
 * `scripts/` are executable (those become tools). A symbolic link that leads out of the folder
 * is left out, since nothing outside may be read through it.
 */
export async function listSkillFiles(skill: string, dir: string | undefined): Promise<SkillFiles> {
  const result: SkillFiles = { files: [], scripts: [], omitted: 0 };
  if (!dir) return result;
  const root = await realpath(dir).catch(() => undefined);
  if (!root) return result;
  const executables: Array<{ file: string; display: string }> = [];
  const visit = async (folder: string, depth: number): Promise<void> => {
    let names: string[];
    try {
      names = (await readdir(folder)).sort();
    } catch {
      return;
    }
    for (const name of names) {
      const full = path.join(folder, name);
      const relative = path.relative(root, full).split(path.sep).join("/");
      if (relative === SKILL_FILE) continue;
      const link = await lstat(full).catch(() => undefined);
      if (!link) continue;
      const real = link.isSymbolicLink() ? await realpath(full).catch(() => undefined) : full;
      if (!real || !isInside(real, root)) continue;
      const info = await stat(real).catch(() => undefined);
      if (!info) continue;
      if (info.isDirectory()) {
        if (depth < MAX_DEPTH && !link.isSymbolicLink()) await visit(full, depth + 1);
        continue;
      }
      if (!info.isFile()) continue;
      if (result.files.length >= MAX_FILES) {
        result.omitted += 1;
        continue;
      }
      const entry: BundledFile = { path: relative, size: info.size };
      result.files.push(entry);
      if (path.dirname(relative) === "scripts" && (info.mode & 0o111) !== 0)
        executables.push({ file: real, display: relative });
    }
  };
  await visit(root, 0);
  result.scripts = nameScripts(skill, executables);
  for (const script of result.scripts) {
    const entry = result.files.find((file) => file.path === script.display);
    if (entry) entry.tool = script.tool;
  }
  return result;
}

/**
 * A skill's files as a loaded skill offers them: its folder's listing, with the scripts a code
 * skill names added. A served skill's files are its listing's (never read here); none of them
 * is run. A named script that cannot be run is reported, and left out.
 */
export async function skillFilesOf(
  record: SkillRecord,
  report: (diagnostic: Diagnostic) => void,
): Promise<SkillFiles> {
  if (record.remote)
    return {
      files: record.remote.entry.files
        .filter((file) => file.path !== SKILL_FILE)
        .map((file) => ({ path: file.path, size: file.size })),
      scripts: [],
      omitted: 0,
    };
  const files = await listSkillFiles(record.name, record.dir);
  if (!record.scriptFiles) return files;
  const named = await codeScripts(record.name, record.scriptFiles);
  for (const problem of named.problems)
    report({
      stage: "skills",
      severity: "warning",
      code: "skill_script_unusable",
      source: SKILLS_SOURCE,
      layer: record.layer,
      item: record.name,
      message: `Skill "${record.name}": ${problem}; it is not offered as a tool.`,
    });
  return { ...files, scripts: [...files.scripts, ...named.scripts] };
}

/** Script files a skill defined in code names; each must exist and be executable. */
export async function codeScripts(
  skill: string,
  files: readonly string[],
): Promise<{ scripts: ScriptFile[]; problems: string[] }> {
  const found: Array<{ file: string; display: string }> = [];
  const problems: string[] = [];
  for (const file of files) {
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) problems.push(`${file} is not a file`);
    else if ((info.mode & 0o111) === 0) problems.push(`${file} is not executable`);
    else found.push({ file: await realpath(file), display: path.basename(file) });
  }
  return { scripts: nameScripts(skill, found), problems };
}

/**
 * `skill__<skill>__<script>`: the script's name without its extension, or with it when two
 * scripts share a stem; made valid by the kernel's one tool-name rule.
 */
function nameScripts(skill: string, files: Array<{ file: string; display: string }>): ScriptFile[] {
  const stems = new Map<string, number>();
  const stemOf = (display: string) =>
    path.basename(display).replace(/\.[^.]+$/, "") || path.basename(display);
  for (const { display } of files)
    stems.set(stemOf(display), (stems.get(stemOf(display)) ?? 0) + 1);
  const used = new Set<string>();
  return files.map(({ file, display }) => {
    const stem = stemOf(display);
    const part = (stems.get(stem) ?? 0) > 1 ? path.basename(display) : stem;
    const full = `skill__${skill}__${part}`;
    const cleaned = sanitizeToolName(full);
    let tool =
      cleaned.length <= MAX_TOOL_NAME_LENGTH && !used.has(cleaned) ? cleaned : hashedToolName(full);
    if (used.has(tool)) tool = hashedToolName(full, `${full}\u0000${display}`);
    used.add(tool);
    return { file, display, tool };
  });
}

function isInside(candidate: string, root: string): boolean {
  return candidate === root || candidate.startsWith(`${root}${path.sep}`);
}
