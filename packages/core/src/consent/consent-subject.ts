import { consentDigest } from "./consent-digest.js";
import type { ConsentKind, ConsentSubject } from "./consent-store.js";

/** What {@link consentSubject} builds a subject from. */
export interface ConsentSubjectSpec {
  kind: ConsentKind;
  name: string;
  /**
   * Everything that matters for safety, as plain data: a command and its arguments, a URL, the
   * names of the variables it expands, every setting that relaxes a check. The digest covers
   * all of it, so changing any of it asks again.
   */
  covers: unknown;
  /** One line a person reads before approving: the command line, the URL, the setting. */
  summary: string;
  /** What approving lets it do, in the user's words ("sends your API key to api.example.com"). */
  effects?: readonly string[] | undefined;
  /** Digests an older release computed for the same subject, accepted so approvals carry over. */
  legacyDigests?: readonly string[] | undefined;
}

/** A consent subject with the one digest recipe every kind uses. */
export function consentSubject(spec: ConsentSubjectSpec): ConsentSubject {
  const subject: ConsentSubject = {
    kind: spec.kind,
    name: spec.name,
    digest: consentDigest(spec.covers),
    summary: spec.summary,
  };
  if (spec.effects && spec.effects.length > 0) subject.effects = [...spec.effects];
  if (spec.legacyDigests && spec.legacyDigests.length > 0)
    subject.legacyDigests = [...spec.legacyDigests];
  return subject;
}

/** `kind:name`, how subjects are keyed in the store and named on the command line. */
export function subjectId(subject: Pick<ConsentSubject, "kind" | "name">): string {
  return `${subject.kind}:${subject.name}`;
}
