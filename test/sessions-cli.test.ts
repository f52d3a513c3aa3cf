// Sessions from the real CLI with a scripted model: every run saved, `run --continue` and
// `--resume ID` give the model the earlier conversation, `sessions [--json]` lists them,
// `sessions rm ID` deletes one, and a session that is not there is refused before anything runs.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import { parseJson, runCli } from "./support/cli.js";

interface RunJson {
  text: string;
  session_id: string;
  error?: { code: string; message: string };
}
interface SessionsJson {
  sessions: Array<{ id: string; first_prompt: string | null; turns: number; updated: string }>;
  folder: string;
}

async function withWorkspace(body: (workspace: TempWorkspace) => Promise<void>) {
  const workspace = await createTempWorkspace("pc-sessions-cli-");
  try {
    await body(workspace);
  } finally {
    await workspace.cleanup();
  }
}

async function run(workspace: TempWorkspace, turns: unknown[], ...args: string[]) {
  await workspace.write("script.json", JSON.stringify(turns));
  return runCli(workspace, ["run", ...args, "--script", "script.json", "--json"]);
}

describe("sessions in the CLI", () => {
  it("saves each run; --continue and --resume give the model the earlier conversation", async () => {
    await withWorkspace(async (workspace) => {
      const first = await run(workspace, [{ text: "Oslo is sunny." }], "Weather in Oslo?");
      assert.equal(first.code, 0, first.stderr);
      const firstId = parseJson<RunJson>(first).session_id;
      const other = await run(workspace, [{ text: "Rome is hot." }], "Weather in Rome?");
      const otherId = parseJson<RunJson>(other).session_id;
      assert.notEqual(firstId, otherId, "a run without a flag starts a new session");

      const continued = await run(
        workspace,
        [
          {
            expect: { messages_include: ["Weather in Rome?", "Rome is hot."] },
            text: "Still hot.",
          },
        ],
        "And tomorrow?",
        "--continue",
      );
      assert.equal(continued.code, 0, continued.stderr);
      assert.equal(parseJson<RunJson>(continued).session_id, otherId, "the latest one");

      const resumed = await run(
        workspace,
        [{ expect: { messages_include: ["Weather in Oslo?"] }, text: "Oslo again." }],
        "And Oslo tomorrow?",
        "--resume",
        firstId,
      );
      assert.equal(resumed.code, 0, resumed.stderr);
      assert.equal(parseJson<RunJson>(resumed).session_id, firstId);

      // Without --json the resume is said on stderr.
      await workspace.write("script.json", JSON.stringify([{ text: "ok" }]));
      const human = await runCli(workspace, [
        "run",
        "hi",
        "-r",
        firstId,
        "--script",
        "script.json",
      ]);
      assert.match(human.stderr, new RegExp(`Continuing session ${firstId} \\(4 messages\\)\\.`));

      const list = await runCli(workspace, ["sessions", "--json"]);
      assert.equal(list.code, 0, list.stderr);
      const json = parseJson<SessionsJson>(list);
      assert.deepEqual(
        json.sessions.map((session) => [session.id, session.first_prompt, session.turns]),
        [
          [firstId, "Weather in Oslo?", 3],
          [otherId, "Weather in Rome?", 2],
        ],
      );
      assert.ok(json.folder.startsWith(workspace.home), "kept in the user's directory");
      const text = await runCli(workspace, ["sessions"]);
      assert.match(
        text.stdout,
        new RegExp(`^${firstId}  \\S+ \\S+  3 turns  0/0 tokens  "Weather in Oslo\\?"$`, "m"),
      );
    });
  });

  it("removes a session with sessions rm, and says when there is none", async () => {
    await withWorkspace(async (workspace) => {
      const id = parseJson<RunJson>(await run(workspace, [{ text: "x" }], "hello")).session_id;
      const removed = await runCli(workspace, ["sessions", "rm", id, "--json"]);
      assert.equal(removed.code, 0, removed.stderr);
      assert.deepEqual(JSON.parse(removed.stdout), { id, removed: true });
      const again = await runCli(workspace, ["sessions", "rm", id]);
      assert.equal(again.code, 1);
      assert.match(again.stdout, /No session ".*" in this workspace\./);
      assert.deepEqual(
        parseJson<SessionsJson>(await runCli(workspace, ["sessions", "--json"])).sessions,
        [],
      );
    });
  });

  it("refuses --resume of an unknown session and --continue with none, before anything runs", async () => {
    await withWorkspace(async (workspace) => {
      const unknown = await run(workspace, [{ text: "never" }], "hi", "--resume", "nope");
      assert.equal(unknown.code, 2);
      assert.equal(parseJson<RunJson>(unknown).error?.code, "session_not_found");
      assert.match(unknown.stderr, /No session "nope" in .* \(pseudoclaude sessions lists them\)/);
      const none = await run(workspace, [{ text: "never" }], "hi", "--continue");
      assert.equal(none.code, 2);
      assert.match(none.stderr, /No session to continue/);
      const both = await run(workspace, [{ text: "never" }], "hi", "--continue", "--resume", "x");
      assert.equal(both.code, 2);
      const bad = await run(workspace, [{ text: "never" }], "hi", "--resume", "../../etc/passwd");
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /is not a session id/);
    });
  });
});
