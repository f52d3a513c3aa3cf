import type { UserMessage } from "../contracts/message.js";
import type { CompiledOutput } from "../output/compile-output.js";
import { StructuredOutputError } from "../output/output-error.js";
import type { OutputIssue } from "../output/output-schema.js";

/** How far the issues of one answer go into a repair request (the rest are counted). */
const MAX_ISSUES_SHOWN = 20;

/**
 * The structured-output side of a run: judge each final answer against the schema. The first
 * answer that misses it is sent back once with its issues (path and message) for a repair; a
 * second miss ends the run with a StructuredOutputError carrying the raw text and the issues.
 */
export class OutputCheck<T> {
  private repairsLeft = 1;

  constructor(private readonly compiled: CompiledOutput<T>) {}

  get format() {
    return this.compiled.format;
  }

  judge(
    text: string,
    normalize?: (value: unknown) => unknown,
  ): { value: T } | { repair: UserMessage; issues: OutputIssue[] } {
    const checked = this.compiled.check(text, normalize);
    if (checked.ok) return { value: checked.value };
    if (this.repairsLeft === 0)
      throw new StructuredOutputError(
        "output_invalid",
        `The final answer does not match the output schema "${this.compiled.format.name}", even after a repair: ${issueList(checked.issues).join("; ")}`,
        { raw: text, issues: checked.issues },
      );
    this.repairsLeft -= 1;
    return {
      issues: checked.issues,
      repair: {
        role: "user",
        content: [
          `Your final answer does not match the required output schema "${this.compiled.format.name}":`,
          ...issueList(checked.issues).map((line) => `- ${line}`),
          "Answer again with only the corrected JSON value, nothing else.",
        ].join("\n"),
      },
    };
  }

  /** The run ended without a final answer (max turns, aborted): no output to give. */
  missing(lastText: string, stopReason: string): StructuredOutputError {
    return new StructuredOutputError(
      "output_missing",
      `The run stopped (${stopReason}) before a final answer matching the output schema "${this.compiled.format.name}".`,
      { raw: lastText, issues: [], details: { stopReason } },
    );
  }
}

function issueList(issues: readonly OutputIssue[]): string[] {
  const shown = issues.slice(0, MAX_ISSUES_SHOWN).map((issue) => `${issue.path}: ${issue.message}`);
  if (issues.length > shown.length) shown.push(`and ${issues.length - shown.length} more`);
  return shown;
}
