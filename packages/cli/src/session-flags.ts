import { FileSessionStore } from "@pseudoclaude/core";
import { CliUsageError } from "./cli-errors.js";
import type { CliFlags } from "./cli-options.js";
import { requireSessionId, sessionNotFound } from "./session-id-errors.js";

/** The session a `run` or `chat` saves to: a new one, the latest (`--continue`), or `--resume ID`. */
export interface SessionChoice {
  store: FileSessionStore;
  /** Undefined for a new session (the agent picks a random id). */
  id?: string;
  resumed: boolean;
}

/**
 * Read `--continue` and `--resume ID` before anything starts: a session that is not there is a
 * usage error naming what there is, not an empty conversation by surprise.
 */
export async function chooseSession(flags: CliFlags, workspace: string): Promise<SessionChoice> {
  const store = new FileSessionStore({ workspace });
  if (flags.continue && flags.resume !== undefined)
    throw new CliUsageError(
      "invalid_usage",
      "--continue and --resume ID both pick a session; give one of them.",
    );
  if (flags.continue) {
    const [latest] = await store.list();
    if (!latest)
      throw sessionNotFound(
        `No session to continue in ${workspace} (pseudoclaude sessions lists them).`,
        { flag: "continue" },
      );
    return { store, id: latest.id, resumed: true };
  }
  if (flags.resume !== undefined) {
    const id = requireSessionId(flags.resume, { flag: "resume" });
    let found: unknown;
    try {
      found = await store.load(id);
    } catch (error) {
      throw sessionNotFound((error as Error).message, { flag: "resume", value: id });
    }
    if (!found)
      throw sessionNotFound(
        `No session "${id}" in ${workspace} (pseudoclaude sessions lists them).`,
        { flag: "resume", value: id },
      );
    return { store, id, resumed: true };
  }
  return { store, resumed: false };
}
