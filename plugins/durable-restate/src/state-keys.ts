/**
 * Names the worker and its clients must agree on, in a module that loads nothing (the client
 * reads the server's state without the SDK).
 */

/** The virtual object's name unless told otherwise: its URLs are `/<name>/<session>/run`. */
export const DEFAULT_OBJECT_NAME = "pseudoclaude";

/** Object state key: the session's entries, the same JSON the file store writes as lines. */
export const ENTRIES_KEY = "session_entries";
