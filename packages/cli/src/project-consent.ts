import {
  type ConsentRecord,
  type ConsentStore,
  type ConsentSubject,
  subjectId,
} from "@pseudoclaude/core/consent";
import { CliUsageError } from "./cli-errors.js";
import { type TextSink, writeJson, writeLine } from "./cli-io.js";

/** `KIND:NAME` as `trust` writes it, or the bare name as `mcp`, `hooks` and `agents` do. */
export function namesSubject(given: string, subject: Pick<ConsentSubject, "kind" | "name">) {
  return given === subjectId(subject) || given === subject.name;
}

/** What `approve` did: the requests chosen, those approved now and those approved already. */
export interface Approval {
  chosen: ConsentSubject[];
  approved: ConsentSubject[];
  already: ConsentSubject[];
}

/**
 * `approve [NAME...]` over what the workspace asks for (of every kind for `trust`, of one for
 * `mcp`, `hooks`, `agents`): the named requests, or every one not approved yet. A name that is
 * none of `requests` is a usage error, worded by the command (`unknown`), and nothing is
 * approved. What is approved already is left as it is.
 */
export function approveRequests(
  store: ConsentStore,
  workspaceKey: string,
  requests: readonly ConsentSubject[],
  names: readonly string[],
  unknown: (names: readonly string[]) => string,
): Approval {
  const missing = names.filter((name) => !requests.some((subject) => namesSubject(name, subject)));
  if (missing.length > 0) throw new CliUsageError("unexpected_argument", unknown(missing));
  const isApproved = (subject: ConsentSubject) => store.isApproved(workspaceKey, subject);
  const chosen = requests.filter((subject) =>
    names.length > 0 ? names.some((name) => namesSubject(name, subject)) : !isApproved(subject),
  );
  const approved = chosen.filter((subject) => !isApproved(subject));
  if (approved.length > 0) store.approve(workspaceKey, approved);
  return { chosen, approved, already: chosen.filter((subject) => !approved.includes(subject)) };
}

/**
 * `revoke [NAME...]`: the named approvals, or every one (of `kind`, when given). With
 * `unknown`, a name that matches no approval is a usage error worded by the command.
 */
export function revokeApprovals(
  store: ConsentStore,
  workspaceKey: string,
  names: readonly string[],
  options: { kind?: string; unknown?: (names: readonly string[]) => string } = {},
): ConsentRecord[] {
  const records = store
    .list(workspaceKey)
    .filter((record) => options.kind === undefined || record.kind === options.kind);
  const missing = names.filter((name) => !records.some((record) => namesSubject(name, record)));
  if (missing.length > 0 && options.unknown)
    throw new CliUsageError("unexpected_argument", options.unknown(missing));
  const chosen = records.filter(
    (record) => names.length === 0 || names.some((name) => namesSubject(name, record)),
  );
  return chosen.length > 0 ? store.revoke(workspaceKey, chosen.map(subjectId)) : [];
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
  const { store, workspaceKey, names, out, subjects, what } = options;
  const done =
    action === "revoke"
      ? revokeApprovals(store, workspaceKey, names, { kind: options.kind })
      : approveRequests(
          store,
          workspaceKey,
          subjects,
          names,
          (missing) =>
            `No ${what} of this workspace is named ${missing.map((name) => `"${name}"`).join(", ")} (those that are: ${subjects.map((subject) => subject.name).join(", ") || "none"}).`,
        ).chosen;
  const past = action === "revoke" ? "revoked" : "approved";
  if (options.json)
    writeJson(out, { [past]: done.map(({ name, summary }) => ({ name, summary })) });
  else if (done.length === 0) writeLine(out, `Nothing to ${action}.`);
  else for (const subject of done) writeLine(out, `${past} ${subject.name}: ${subject.summary}`);
}
