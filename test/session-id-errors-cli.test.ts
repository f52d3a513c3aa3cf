// One error code for a bad session id and one for an unknown one, whichever command is given
// the id, through the real CLI: `invalid_session_id` for an id that cannot be a session's
// (checked before anything is read or sent), `session_not_found` for a valid id nobody holds.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import { type CliRun, runCli } from "./support/cli.js";

const BAD = "../../etc/passwd";
const UNKNOWN = "no-such-session";

interface Case {
  name: string;
  args: (id: string) => string[];
  /** The exit code for an unknown id (a bad id is always a usage error: 2). */
  unknownExit: number;
}

const cases: Case[] = [
  {
    name: "run --resume",
    args: (id) => ["run", "hi", "--resume", id, "--script", "script.json"],
    unknownExit: 2,
  },
  {
    name: "chat --resume",
    args: (id) => ["chat", "--resume", id, "--script", "script.json"],
    unknownExit: 2,
  },
  // A missing session is what these commands report as their result (exit 1, documented).
  { name: "sessions rm", args: (id) => ["sessions", "rm", id], unknownExit: 1 },
  { name: "tasks", args: (id) => ["tasks", id], unknownExit: 1 },
];

/** The `error.code` a command printed with `--json` (one JSON document). */
function errorCode(run: CliRun): string | undefined {
  try {
    return (JSON.parse(run.stdout) as { error?: { code?: string } }).error?.code;
  } catch {
    assert.fail(`not JSON: ${run.stdout}\n${run.stderr}`);
  }
}

async function withWorkspace(body: (workspace: TempWorkspace) => Promise<void>) {
  const workspace = await createTempWorkspace("pc-session-ids-");
  try {
    await workspace.write("script.json", JSON.stringify([{ text: "never" }]));
    await body(workspace);
  } finally {
    await workspace.cleanup();
  }
}

describe("session id errors in every command", () => {
  for (const command of cases)
    it(`${command.name}: invalid_session_id for a bad id, session_not_found for an unknown one`, async () => {
      await withWorkspace(async (workspace) => {
        const bad = await runCli(workspace, [...command.args(BAD), "--json"]);
        assert.equal(bad.code, 2, bad.stderr);
        assert.equal(errorCode(bad), "invalid_session_id");
        assert.match(bad.stderr, /is not a session id/);
        const unknown = await runCli(workspace, [...command.args(UNKNOWN), "--json"]);
        assert.equal(unknown.code, command.unknownExit, unknown.stderr);
        assert.equal(errorCode(unknown), "session_not_found");
      });
    });

  it("/resume in a chat: the same two codes, and the chat goes on", async () => {
    await withWorkspace(async (workspace) => {
      const chat = await runCli(workspace, ["chat", "--script", "script.json", "--json"], {
        input: `/resume ${BAD}\n/resume ${UNKNOWN}\n`,
      });
      assert.equal(chat.code, 0, chat.stderr);
      const errors = chat.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { type: string; error?: { code: string } })
        .filter((event) => event.type === "error")
        .map((event) => event.error?.code);
      assert.deepEqual(errors, ["invalid_session_id", "session_not_found"]);
    });
  });

  it("run --durable restate: a bad --session or --resume is refused before anything is sent", async () => {
    await withWorkspace(async (workspace) => {
      for (const flag of ["--session", "--resume"]) {
        // Nothing listens there: reaching for the server would fail with restate_unreachable.
        const bad = await runCli(workspace, [
          "run",
          "hi",
          "--durable",
          "restate",
          flag,
          BAD,
          "--ingress",
          "http://127.0.0.1:9",
          "--admin",
          "http://127.0.0.1:9",
          "--json",
        ]);
        assert.equal(bad.code, 2, bad.stderr);
        assert.equal(errorCode(bad), "invalid_session_id", flag);
      }
    });
  });
});
