import { FileSessionStore } from "@pseudoclaude/core";
import { loadCliConfig } from "../cli-agent.js";
import { CliUsageError } from "../cli-errors.js";
import { type CliIo, writeJson, writeLine } from "../cli-io.js";
import type { CommandContext, CommandSpec } from "../command.js";
import {
  adminUrl,
  DEFAULT_RESTATE_ADMIN,
  durableClient,
  newestFirst,
  parseDurable,
} from "../durable/durable-flags.js";
import { EXIT } from "../exit-codes.js";
import { sessionLine, sessionToJson } from "../render-sessions.js";
import { reportSessionNotFound, requireSessionId, sessionNotFound } from "../session-id-errors.js";

/** `pseudoclaude sessions [rm ID]`: the workspace's saved sessions. */
export const sessionsCommand: CommandSpec = {
  name: "sessions",
  summary: "List the workspace's saved sessions (run --continue / --resume ID), or rm one.",
  usage: `Usage: pseudoclaude sessions [--json] [--workspace DIR]
       pseudoclaude sessions rm ID [--json]
       pseudoclaude sessions --durable restate [--admin URL] [--json]

Every run and chat is saved as a session in ~/.PseudoClaude/sessions, per workspace. Listed
newest first: id, last change, model turns, tokens (input/output), first prompt.

  --json   {"sessions": [{"id", "created", "updated", "first_prompt", "turns",
            "tokens": {"input", "output"}}], "folder"}; rm: {"id", "removed"}
  --durable restate  the durable sessions a Restate server holds (read from its state, no
            worker needed), listed the same way; --json has "admin" instead of "folder".
            Continue one: pseudoclaude run --durable restate --session ID "…"
  --admin URL  Restate's admin API (default: $PSEUDOCLAUDE_RESTATE_ADMIN, else ${DEFAULT_RESTATE_ADMIN})

rm exits 1 when there is no such session (session_not_found), 2 for an id that could not be
one (invalid_session_id).`,
  flags: ["durable", "admin"],
  positionals: { min: 0, max: 2, names: "[rm ID]" },
  run: runSessions,
};

async function runSessions({ flags, args, io }: CommandContext): Promise<number> {
  if (parseDurable(flags.durable)) {
    if (args.length > 0)
      throw new CliUsageError(
        "unexpected_argument",
        '"sessions --durable restate" only lists; a durable session lives in the server\'s state.',
      );
    return listDurable(flags, io);
  }
  const { workspace } = await loadCliConfig(flags, io);
  const store = new FileSessionStore({ workspace });
  const [action, id] = args;
  if (action !== undefined) {
    if (action !== "rm" || id === undefined)
      throw new CliUsageError(
        "unexpected_argument",
        `"sessions" takes nothing, or rm ID (got "${args.join(" ")}").`,
      );
    return remove(store, requireSessionId(id, { argument: "ID" }), flags.json ?? false, io);
  }
  const sessions = await store.list();
  if (flags.json) {
    writeJson(io.stdout, { sessions: sessions.map(sessionToJson), folder: store.folder });
    return EXIT.ok;
  }
  if (sessions.length === 0) {
    writeLine(io.stdout, `No sessions in ${workspace} yet.`);
    return EXIT.ok;
  }
  for (const session of sessions) writeLine(io.stdout, sessionLine(session));
  writeLine(io.stdout, `Continue one: pseudoclaude run --resume ID "…" (or chat --resume ID).`);
  return EXIT.ok;
}

async function remove(
  store: FileSessionStore,
  id: string,
  json: boolean,
  io: CliIo,
): Promise<number> {
  if (!(await store.delete(id)))
    return reportSessionNotFound(
      io,
      json,
      sessionNotFound(`No session "${id}" in this workspace.`, { argument: "ID", value: id }),
      { text: "stdout", extra: { id, removed: false } },
    );
  if (json) writeJson(io.stdout, { id, removed: true });
  else writeLine(io.stdout, `Removed session ${id}.`);
  return EXIT.ok;
}

/** The durable sessions a Restate server holds, listed like the workspace's. */
async function listDurable(flags: CommandContext["flags"], io: CliIo): Promise<number> {
  const out = io.stdout;
  const client = await durableClient(flags);
  let held: Awaited<ReturnType<typeof client.sessions>>;
  try {
    held = await client.sessions();
  } catch (error) {
    writeLine(
      io.stderr,
      `Cannot list durable sessions from ${adminUrl(flags)}: ${(error as Error).message}`,
    );
    return EXIT.failed;
  }
  const sessions = newestFirst(held);
  if (flags.json) {
    writeJson(out, { sessions: sessions.map(sessionToJson), admin: client.admin });
    return EXIT.ok;
  }
  if (sessions.length === 0) {
    writeLine(out, `No durable sessions in the Restate server at ${client.admin} yet.`);
    return EXIT.ok;
  }
  for (const session of sessions) writeLine(out, sessionLine(session));
  writeLine(out, `Continue one: pseudoclaude run --durable restate --session ID "…".`);
  return EXIT.ok;
}
