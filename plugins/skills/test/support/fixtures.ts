import { cp, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The repository's skill fixtures, test/fixtures/skills (read from the sources: tsc copies no
 * Markdown). From plugins/skills/dist/test/support that is four folders up.
 */
export const FIXTURE_SKILLS = fileURLToPath(
  new URL("../../../../../test/fixtures/skills/", import.meta.url),
);

export function fixtureText(skill: string, file = "SKILL.md"): Promise<string> {
  return readFile(path.join(FIXTURE_SKILLS, skill, file), "utf8");
}

/** Copy fixture skills into `root` (a skills folder), keeping file modes (executable scripts). */
export async function copySkills(root: string, names: readonly string[]): Promise<void> {
  for (const name of names)
    await cp(path.join(FIXTURE_SKILLS, name), path.join(root, name), { recursive: true });
}
