/**
 * `@pseudoclaude/core/consent`: project approvals. A workspace's own files (a cloned
 * repository's config) can ask to run commands; those start only once the user approved them
 * for that workspace. Approvals are remembered in the user's files by a {@link ConsentStore}
 * (by default {@link FileConsentStore} in `~/.PseudoClaude/approvals.json`), keyed by the
 * workspace's real path and a digest of what would run, so a changed command asks again.
 *
 * @module @pseudoclaude/core/consent
 */

export {
  ENV_SUBJECT,
  ENV_WIDENING,
  envConsentRequest,
} from "../config/env-section.js";
export { canonicalJson, consentDigest } from "../consent/consent-digest.js";
export type {
  ConsentKind,
  ConsentRecord,
  ConsentStore,
  ConsentSubject,
  ProjectApprovals,
  WorkspaceConsent,
} from "../consent/consent-store.js";
export {
  type ConsentSubjectSpec,
  consentSubject,
  subjectId,
} from "../consent/consent-subject.js";
export {
  consentWorkspaceKey,
  defaultConsentStore,
  workspaceConsent,
} from "../consent/default-consent.js";
export { APPROVALS_FILE, FileConsentStore } from "../consent/file-consent-store.js";
export { needsConsentDiagnostic } from "../consent/needs-consent.js";
export type {
  ConsentRequestContext,
  PluginTrust,
  WideningSetting,
} from "../consent/widening.js";
export {
  PERMISSIONS_SUBJECT,
  PERMISSIONS_WIDENING,
  permissionsConsentRequest,
} from "../policy/permissions-section.js";
