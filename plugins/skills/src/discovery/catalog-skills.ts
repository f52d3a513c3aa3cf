import type { Diagnostic } from "@pseudoclaude/core";
import type { SkillCatalog } from "@pseudoclaude/core/plugin";
import { stringify } from "yaml";
import { parseSkillFile } from "../format/parse-skill-file.js";
import type { SkillsSettings } from "../settings/skills-settings.js";
import type { SkillRecord } from "./skill-record.js";
import type { CatalogLayerId } from "./skill-roots.js";

/** Records of every skill the catalog's layers list now, and what was wrong with them. */
export interface CatalogScan {
  skills: SkillRecord[];
  diagnostics: Diagnostic[];
}

/**
 * The catalog's skills as records, after the folders' in lookup order. A skill is named
 * `<layer id>/<key>` (`mcp:docs/pdf-processing`): its origin is in its name, so it can neither
 * shadow nor be shadowed by a skill of another origin. Its listed front matter goes through
 * the same parser as a SKILL.md's, so it meets the same rules; nothing of the skill is read.
 * `skills.enabled` / `skills.disabled` may name the skill or its whole layer.
 */
export function catalogSkills(
  catalog: SkillCatalog | undefined,
  settings: Pick<SkillsSettings, "enabled" | "disabled">,
): CatalogScan {
  const skills: SkillRecord[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const layer of catalog?.layers() ?? []) {
    const id = layer.id as CatalogLayerId;
    for (const entry of layer.entries()) {
      const name = `${id}/${entry.key}`;
      const named = (list: readonly string[] | undefined) =>
        list?.includes(name) || list?.includes(id);
      const record: SkillRecord = {
        name,
        layer: id,
        file: entry.location,
        enabled:
          (settings.enabled === undefined || !!named(settings.enabled)) &&
          !named(settings.disabled),
        diagnostics: [],
        remote: { layer, entry },
      };
      const parse = parseSkillFile(frontMatterText(entry.frontmatter), {
        file: `${entry.location} (as ${layer.origin} lists it)`,
        folderName: entry.key.split("/").at(-1) ?? entry.key,
      });
      if (parse.ok) {
        // Loaded by its qualified name; the body is not known until it is read.
        record.document = { ...parse.skill, name, body: "" };
        record.diagnostics.push(...parse.warnings.map((warning) => located(warning, id)));
      } else record.diagnostics.push(located(parse.diagnostic, id));
      diagnostics.push(...record.diagnostics);
      skills.push(record);
    }
  }
  return { skills, diagnostics };
}

/** Listed front matter as the text of a SKILL.md with no body, for the one parser. */
function frontMatterText(frontmatter: Readonly<Record<string, unknown>>): string {
  return `---\n${stringify(frontmatter)}---\n`;
}

function located(diagnostic: Diagnostic, layer: string): Diagnostic {
  // A listing has no lines of its own: the position is that of the text we rendered.
  const { line: _line, column: _column, ...rest } = diagnostic;
  return { ...rest, layer };
}
