import type { ConsentStore, ConsentSubject } from "@pseudoclaude/core/consent";
import { CliUsageError } from "./cli-errors.js";
import { type TextSink, writeJson, writeLine } from "./cli-io.js";

/**
 * `approve [NAME...]` for one kind of project item (hooks, agents): the named ones, or every
 * one not approved yet. A name that is not one of `subjects` is a usage error naming those
 * that are. Returns what was approved now.
 */
export function approveSubjects(
  store: ConsentStore,
  workspaceKey: string,
  subjects: readonly ConsentSubject[],
  names: readonly string[],
  what: string,
): ConsentSubject[] {
  const unknown = names.filter((name) => !subjects.some((subject) => subject.name === name));
  if (unknown.length > 0)
    throw new CliUsageError(
      "unexpected_argument",
      `No ${what} of this workspace is named ${unknown.map((name) => `"${name}"`).join(", ")} (those that are: ${subjects.map((subject) => subject.name).join(", ") || "none"}).`,
    );
  const chosen = subjects.filter((subject) =>
    names.length > 0 ? names.includes(subject.name) : !store.isApproved(workspaceKey, subject),
  );
  if (chosen.length > 0) store.approve(workspaceKey, chosen);
  return chosen;
}

/** `revoke [NAME...]` for one kind: the named approvals, or every one of that kind. */
export function revokeKind(
  store: ConsentStore,
  workspaceKey: string,
  kind: string,
  names: readonly string[],
) {
  const ofKind = store
    .list(workspaceKey)
    .filter((record) => record.kind === kind)
    .map((record) => record.name);
  return store.revoke(workspaceKey, names.length > 0 ? names : ofKind);
}

/**
 * `approve` or `revoke` of one kind of project item, printed the same way for every kind:
 * `{"approved": [{name, summary}]}` / `{"revoked": [...]}` with --json, a line each otherwise.
 */
export function consentAction(
  action: "approve" | "revoke",
  options: {
    store: ConsentStore;
    workspaceKey: string;
    kind: string;
    what: string;
    subjects: readonly ConsentSubject[];
    names: readonly string[];
    json: boolean;
    out: TextSink;
  },
): void {
  const { store, workspaceKey, names, out } = options;
  const done =
    action === "revoke"
      ? revokeKind(store, workspaceKey, options.kind, names)
      : approveSubjects(store, workspaceKey, options.subjects, names, options.what);
  const past = action === "revoke" ? "revoked" : "approved";
  if (options.json)
    writeJson(out, { [past]: done.map(({ name, summary }) => ({ name, summary })) });
  else if (done.length === 0) writeLine(out, `Nothing to ${action}.`);
  else for (const subject of done) writeLine(out, `${past} ${subject.name}: ${subject.summary}`);
}
