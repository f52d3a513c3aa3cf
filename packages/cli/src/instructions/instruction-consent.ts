import { realpathSync } from "node:fs";
import path from "node:path";
import { loadInstructionFiles } from "@pseudoclaude/compat-claude-code";
import {
  type ConsentSubject,
  consentSubject,
  type WideningSetting,
} from "@pseudoclaude/core/consent";

/** The consent kind of a home file a repository's instruction file would have read. */
export const INSTRUCTION_IMPORT_KIND = "instruction_import";

/**
 * A repository's `CLAUDE.md` (or `AGENTS.md`, `CLAUDE.local.md`) may import a file of the user's
 * home, or be a link to one. That text goes to the model with every request, so a stranger's
 * repository could have `~/.aws/credentials` read and sent: as Claude Code asks before an
 * import from outside the project, this asks once per file and workspace.
 */
export const INSTRUCTION_IMPORT_WIDENING: WideningSetting = {
  setting: "@~/… imports in CLAUDE.md, AGENTS.md, CLAUDE.local.md (or a link into your home)",
  kind: INSTRUCTION_IMPORT_KIND,
  effect: "reads a file of your home and sends it to the model with every request",
};

/** The subject for reading one home file (`~/notes/style.md`), whichever file asked. */
export function homeReadSubject(
  target: string,
  homeDir: string,
  asker: { file?: string; from?: string; line?: number | undefined },
): ConsentSubject {
  const name = `~/${path.relative(realOrSelf(homeDir), target)}`;
  const from = asker.file ?? asker.from ?? "an instruction file";
  const where = asker.line !== undefined ? `${from} line ${asker.line}` : from;
  return consentSubject({
    kind: INSTRUCTION_IMPORT_KIND,
    name,
    // Which file is read is all that matters: its content is the user's own.
    covers: { target },
    summary: `${where} has ${name} read into the model's instructions`,
    effects: [`sends ${name}, a file of your home, to the model with every request`],
  });
}

/** Every home file the workspace's instruction files would have read: what `trust` lists. */
export function homeReadRequests(workspace: string, homeDir: string): ConsentSubject[] {
  const subjects: ConsentSubject[] = [];
  loadInstructionFiles(workspace, {
    homeDir,
    homeRead: (request) => {
      subjects.push(homeReadSubject(request.target, homeDir, request));
      // Followed as if approved, so that what an approved file imports is listed too.
      return true;
    },
  });
  return subjects;
}

/** The target is a real path (links followed): so is the home it is named against. */
function realOrSelf(dir: string): string {
  try {
    return realpathSync.native(dir);
  } catch {
    return dir;
  }
}
