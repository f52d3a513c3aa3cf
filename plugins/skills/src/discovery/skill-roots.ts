import path from "node:path";
import type { SkillsSettings } from "../settings/skills-settings.js";

/**
 * Which layer a skill belongs to; the first wins a name: code, then project, then user. A layer
 * of the kernel's skill catalog (`mcp:<server>`) names its skills `<layer>/<key>`, so they
 * never take a name from another origin.
 */
export type SkillLayer = "code" | "project" | "user" | CatalogLayerId;

/** The id of a layer of the kernel's skill catalog: a kind and a name (`mcp:docs`). */
export type CatalogLayerId = `${string}:${string}`;

/** A folder that holds skill folders (`<root>/<skill>/SKILL.md`). */
export interface SkillRoot {
  dir: string;
  layer: SkillLayer;
}

/**
 * The folders other agents keep skills in, in the order a name is looked up: ours, then the
 * cross-agent `.agents`, then Claude Code's. Skills written for those agents work unchanged.
 */
export const SKILL_FOLDERS = [".PseudoClaude/skills", ".agents/skills", ".claude/skills"];

/**
 * Every root in lookup order: folders named in code, then the project's (its three folders,
 * then `skills.paths` of the project config), then the user's (the three under the home
 * directory, then `skills.paths` of the user config).
 */
export function skillRoots(workspace: string, home: string, settings: SkillsSettings): SkillRoot[] {
  const named = (origin: string) =>
    settings.paths.filter((entry) => entry.origin === origin).map((entry) => entry.dir);
  const roots: SkillRoot[] = [
    ...named("code").map((dir) => ({ dir, layer: "code" as const })),
    ...SKILL_FOLDERS.map((folder) => ({
      dir: path.join(workspace, folder),
      layer: "project" as const,
    })),
    ...named("project").map((dir) => ({ dir, layer: "project" as const })),
    ...SKILL_FOLDERS.map((folder) => ({ dir: path.join(home, folder), layer: "user" as const })),
    ...named("user").map((dir) => ({ dir, layer: "user" as const })),
  ];
  // A workspace that is the home directory has one set of folders, and they are the user's
  // own (their allowed-tools are trusted), not a project's.
  const userDirs = new Set(
    roots.filter((root) => root.layer === "user").map((root) => path.resolve(root.dir)),
  );
  const seen = new Set<string>();
  return roots.filter((root) => {
    const key = path.resolve(root.dir);
    if (root.layer !== "user" && userDirs.has(key)) return false;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
