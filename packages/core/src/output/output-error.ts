import { isErrorOf, ModelError } from "../errors.js";
import type { OutputIssue } from "./output-schema.js";

/** Codes of structured-output failures: an answer that missed the schema, or no answer. */
export type StructuredOutputErrorCode = "output_invalid" | "output_missing";

/**
 * The run was asked for a typed output and cannot give one: the final answer still missed
 * the schema after one repair (`output_invalid`), or the run ended without a final answer
 * (`output_missing`: max turns, aborted). Never a silently wrong object: `raw` is what the model
 * last wrote and `issues` say where and why it failed.
 */
export class StructuredOutputError extends ModelError<StructuredOutputErrorCode> {
  readonly raw: string;
  readonly issues: readonly OutputIssue[];

  constructor(
    code: StructuredOutputErrorCode,
    message: string,
    facts: { raw: string; issues: readonly OutputIssue[]; details?: Record<string, unknown> },
  ) {
    super(code, message, { details: { ...facts.details, issues: facts.issues } });
    this.raw = facts.raw;
    this.issues = facts.issues;
  }

  /** True for a StructuredOutputError from any copy of this module; `code` is typed. */
  static override is(value: unknown): value is StructuredOutputError {
    return isErrorOf(value, "model", "StructuredOutputError");
  }
}
