import { cp, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The skill folders under test/fixtures/skills (the sources, not the build output). */
export const FIXTURE_SKILLS = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "..",
  "..",
  "test",
  "fixtures",
  "skills",
);

export function fixtureText(skill: string, file = "SKILL.md"): Promise<string> {
  return readFile(path.join(FIXTURE_SKILLS, skill, file), "utf8");
}

/** Copy fixture skills into `root` (a skills folder), keeping file modes (executable scripts). */
export async function copySkills(root: string, names: readonly string[]): Promise<void> {
  for (const name of names)
    await cp(path.join(FIXTURE_SKILLS, name), path.join(root, name), { recursive: true });
}
