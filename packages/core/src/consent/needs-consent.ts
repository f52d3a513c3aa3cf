import type { SectionEntry } from "../config/config-layer.js";
import type { Diagnostic } from "../contracts/diagnostic.js";
import type { ConsentSubject } from "./consent-store.js";
import { subjectId } from "./consent-subject.js";

/**
 * The warning a section's reader gives for a workspace setting it left out until the user
 * consents: where it is, what it would have done, and the command that approves it. Code
 * `needs_consent`, item `KIND:NAME`.
 */
export function needsConsentDiagnostic(
  subject: ConsentSubject,
  entry: SectionEntry,
  options: {
    /** Who reads the section (`policy`, `cli`, a plugin's source). */
    source?: string;
    /** What was left out and what still applies, as a sentence: "…; only its deny rules apply". */
    what: string;
  },
): Diagnostic {
  const id = subjectId(subject);
  return {
    stage: "config",
    severity: "warning",
    code: "needs_consent",
    ...(options.source ? { source: options.source } : {}),
    layer: entry.layer,
    item: id,
    ...entry.locate([]),
    message: `${options.what} until you approve it: pseudoclaude trust approve ${id}`,
  };
}
