import type { InstructionProblem, LoadedInstructionFile } from "@pseudoclaude/compat-claude-code";
import type { Diagnostic } from "@pseudoclaude/core";
import { subjectId } from "@pseudoclaude/core/consent";
import type { SystemPromptSection } from "@pseudoclaude/core/plugin";
import { homeReadSubject } from "./instruction-consent.js";

/** The plugin's name, and the source of its diagnostics. */
export const INSTRUCTIONS_SOURCE = "instructions";

/**
 * Where instruction files sit in the system prompt: after the base prompt and the environment
 * (order 10), before the Skills index (50) and MCP servers' instructions (100).
 */
export const INSTRUCTIONS_ORDER = 20;

export type Report = (diagnostic: Omit<Diagnostic, "source"> & { source?: string }) => void;
type Section = Omit<SystemPromptSection, "source"> & { source: string };
type CutListener = NonNullable<SystemPromptSection["onCut"]>;

/** What each kind of file is, in the words the model reads under its heading. */
function describe(file: LoadedInstructionFile): string {
  if (file.importedBy)
    return `imported by ${file.importedBy.display}, line ${file.importedBy.line}`;
  if (file.scope === "user") return "the user's own instructions, for all projects";
  if (file.scope === "local") return "the user's private instructions for this project";
  if (file.name === "AGENTS.md")
    return "project instructions for coding agents, checked into the repository";
  return "project instructions, checked into the repository";
}

/**
 * One instruction file as a section, headed by its path and what it is. Only the prompt's total
 * budget cuts it (not the per-section cap: a file is as long as its authors chose), and a cut
 * or a file left out is a warning naming the file, never silent.
 */
export function instructionSection(
  file: LoadedInstructionFile,
  index: number,
  report: Report,
): Section {
  return {
    id: `instructions:${index}:${file.display}`,
    source: file.path,
    title: `${file.display} (${describe(file)})`,
    content: file.content,
    maxChars: Math.max(1, file.content.length),
    order: INSTRUCTIONS_ORDER,
    onCut: cutWarning(report, file.display, file.path),
  };
}

/**
 * A warning naming the instruction text the budget cut or left out, with what to change:
 * instructions the model silently never saw would look like instructions it ignored.
 */
export function cutWarning(report: Report, display: string, file: string): CutListener {
  return (cut) =>
    report({
      stage: "prompt",
      severity: "warning",
      code: cut.kind === "omitted" ? "instruction_file_omitted" : "instruction_file_cut",
      source: INSTRUCTIONS_SOURCE,
      file,
      message:
        cut.kind === "omitted"
          ? `${display} (${cut.chars} characters) is left out of the system prompt: its budget is used up before it. Raise agent.system_prompt_budget_chars or shorten the instruction files.`
          : `${display} is cut to ${cut.shownChars} of its ${cut.chars} characters to fit the system prompt's budget. Raise agent.system_prompt_budget_chars or shorten it.`,
    });
}

/** Problems that lose a file the author meant the model to read are warnings; the rest, notes. */
const WARNINGS = new Set<InstructionProblem["kind"]>([
  "outside",
  "needs_consent",
  "cycle",
  "too_deep",
  "not_text",
  "unreadable",
]);

/** A file left out, or not read whole, as a diagnostic at its file and line. */
export function problemDiagnostic(problem: InstructionProblem, homeDir: string): Diagnostic {
  const position = {
    file: problem.file,
    ...(problem.line !== undefined ? { line: problem.line } : {}),
  };
  if (problem.kind === "needs_consent" && problem.target) {
    const id = subjectId(homeReadSubject(problem.target, homeDir, problem));
    return {
      stage: "prompt",
      severity: "warning",
      code: "needs_consent",
      source: INSTRUCTIONS_SOURCE,
      item: id,
      ...position,
      message: `${problem.message} Not read until you approve it: pseudoclaude trust approve ${id}`,
    };
  }
  return {
    stage: "prompt",
    severity: WARNINGS.has(problem.kind) ? "warning" : "info",
    code: `instruction_${problem.kind}`,
    source: INSTRUCTIONS_SOURCE,
    ...position,
    message: problem.message,
  };
}
