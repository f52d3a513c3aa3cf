// `pseudoclaude run --durable restate` against the real Restate server from npm (loopback,
// started and stopped here), with `serve --durable restate` as the worker: the run streams its
// events and prints what an in-process run prints, `sessions --durable restate` lists what the
// server holds, runs continue a session like a local one, and usage errors stop before sending.
import assert from "node:assert/strict";
import { rm } from "node:fs/promises";
import { after, before, describe, it } from "node:test";
import { DurableClient } from "@pseudoclaude/durable-restate/client";
import type { TempWorkspace } from "@pseudoclaude/testing";
import { positions, systemText } from "./fixtures/instructions/prompt-run.js";
import { anthropicStream } from "./fixtures/providers/anthropic-wire.js";
import { startWireServer } from "./fixtures/providers/wire-server.js";
import { parseJson, runCli } from "./support/cli.js";
import { comparable, type DurableCli, startDurableCli } from "./support/durable-cli.js";
import type { RestateServer } from "./support/restate-server.js";

const TIMEOUT = { timeout: 120_000 };

let cli: DurableCli;
let server: RestateServer;
let workspace: TempWorkspace;
before(async () => {
  cli = await startDurableCli();
  ({ server, workspace } = cli);
});
after(async () => {
  await cli?.stop();
});

describe("durable runs from the CLI (the real Restate server)", () => {
  it(
    "serve is the worker; run --durable streams the run's events and prints what an in-process run prints",
    TIMEOUT,
    async () => {
      await workspace.write("notes/a.txt", "alpha\n");
      const script = await workspace.write(
        "list.json",
        JSON.stringify([
          { tool_calls: [{ name: "list_dir", arguments: { path: "notes" } }] },
          { text: "One note." },
        ]),
      );
      const worker = await cli.serve(["--script", script, "--register", "--admin", server.admin]);
      const local = await runCli(workspace, [
        "run",
        "list the notes",
        "--script",
        script,
        "--json",
      ]);
      assert.equal(local.code, 0, local.stderr);

      const streamed = await runCli(workspace, [
        "run",
        "list the notes",
        ...cli.durable(),
        "--session",
        "notes",
      ]);
      assert.equal(streamed.code, 0, streamed.stderr + worker.output());
      assert.equal(streamed.stdout, "One note.\n");
      const lines = streamed.stderr.split("\n");
      assert.match(lines[0] ?? "", /^Durable run inv_\w+ of session notes \(Restate at /);
      assert.deepEqual(lines.slice(1, 4), [
        '> list_dir {"path":"notes"}',
        '  allow: "list_dir" is read-only.',
        "  list_dir -> ok: notes: 1 entry (0 directories, 1 other)",
      ]);

      const again = await runCli(workspace, [
        "run",
        "list the notes",
        ...cli.durable(),
        "--session",
        "notes",
        "--json",
      ]);
      assert.equal(again.code, 0, again.stderr);
      const document = parseJson<Record<string, unknown>>(again);
      assert.equal(document.session_id, "notes");
      assert.match(String(document.invocation_id), /^inv_/);
      assert.deepEqual(comparable(document), comparable(parseJson(local)));

      // Both runs are one session: the server holds its conversation, listed like a local one.
      const listed = await runCli(workspace, [
        "sessions",
        "--durable",
        "restate",
        "--admin",
        server.admin,
        "--json",
      ]);
      assert.equal(listed.code, 0, listed.stderr);
      const { sessions, admin } = parseJson<{
        sessions: Array<Record<string, unknown>>;
        admin: string;
      }>(listed);
      assert.equal(admin, server.admin);
      const notes = sessions.find((session) => session.id === "notes");
      assert.ok(notes, JSON.stringify(sessions));
      assert.equal(notes.turns, 4);
      assert.equal(notes.first_prompt, "list the notes");
      const human = await runCli(workspace, [
        "sessions",
        "--durable",
        "restate",
        "--admin",
        server.admin,
      ]);
      assert.match(
        human.stdout,
        /^notes {2}\S+ \S+ {2}4 turns {2}0\/0 tokens {2}"list the notes"$/m,
      );
      // Continued like any other session: --continue takes the latest, --resume ID one that is there.
      const admin2 = ["--admin", server.admin];
      const continued = await runCli(workspace, [
        "run",
        "once more",
        ...cli.durable(),
        ...admin2,
        "--continue",
        "--json",
      ]);
      assert.equal(continued.code, 0, continued.stderr);
      assert.equal(parseJson<{ session_id: string }>(continued).session_id, "notes");
      const resumed = await runCli(workspace, [
        "run",
        "and again",
        ...cli.durable(),
        ...admin2,
        "--resume",
        "notes",
      ]);
      assert.equal(resumed.code, 0, resumed.stderr);
      assert.match(resumed.stderr, /^Continuing durable session notes\.$/m);
      const held = await new DurableClient({ admin: server.admin }).session("notes");
      const prompts = (held?.entries ?? []).flatMap((entry) =>
        entry.type === "turn" ? entry.messages.filter((message) => message.role === "user") : [],
      );
      assert.deepEqual(
        prompts.map((message) => message.content),
        ["list the notes", "list the notes", "once more", "and again"],
        "four prompts, one conversation",
      );
      const missing = await runCli(workspace, [
        "run",
        "hi",
        ...cli.durable(),
        ...admin2,
        "--resume",
        "nope",
        "--json",
      ]);
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /No durable session "nope" in the Restate server at /);
      const both = await runCli(workspace, [
        "run",
        "hi",
        ...cli.durable(),
        "--session",
        "notes",
        "--continue",
      ]);
      assert.equal(both.code, 2);
      assert.match(both.stderr, /--session and --continue each pick a session; give one of them/);
      assert.equal(await worker.stop(), 130, "stopped by SIGTERM, as every command");
    },
  );

  it(
    "the worker's agent gets the CLI's system prompt: the base, instruction files, the worker's --append-system-prompt",
    TIMEOUT,
    async () => {
      const model = await startWireServer();
      const claudeMd = await workspace.write("CLAUDE.md", "Durable conventions: tabs.\n");
      try {
        model.reply(anthropicStream({ text: "Done." }));
        const worker = await cli.serve(
          [
            ...["--provider", "anthropic", "--append-system-prompt", "Worker note."],
            ...["--register", "--admin", server.admin],
          ],
          { ANTHROPIC_API_KEY: "sk-ant-test", ANTHROPIC_BASE_URL: model.baseURL },
        );
        const run = await runCli(workspace, ["run", "hi", ...cli.durable(), "--session", "sp"]);
        assert.equal(run.code, 0, run.stderr + worker.output());
        positions(systemText(model.requests[0]?.body?.system), [
          "You are PseudoClaude, a coding agent.",
          "Durable conventions: tabs.",
          "Worker note.",
        ]);
        const flag = await runCli(workspace, [
          ...["run", "hi", ...cli.durable(), "--append-system-prompt", "x"],
        ]);
        assert.equal(flag.code, 2);
        assert.match(flag.stderr, /--append-system-prompt shapes the agent/);
        await worker.stop();
      } finally {
        await rm(claudeMd);
        await model.close();
      }
    },
  );

  it("refuses what a durable run cannot take, before anything is sent", async () => {
    const serveBare = await runCli(workspace, ["serve"]);
    assert.equal(serveBare.code, 2);
    assert.match(serveBare.stderr, /"serve" needs --durable restate/);
    const otherEngine = await runCli(workspace, ["serve", "--durable", "temporal"]);
    assert.equal(otherEngine.code, 2);
    assert.match(otherEngine.stderr, /--durable must be one of restate \(got "temporal"\)/);
    const noModel = await runCli(workspace, ["serve", "--durable", "restate"]);
    assert.equal(noModel.code, 2);
    assert.match(noModel.stderr, /needs a model provider/);
    const workerFlag = await runCli(workspace, [
      "run",
      "hi",
      ...cli.durable(),
      "--provider",
      "openai",
    ]);
    assert.equal(workerFlag.code, 2);
    assert.match(
      workerFlag.stderr,
      /--provider shapes the agent, and a durable run's agent is its worker's/,
    );
    const sessionAlone = await runCli(workspace, [
      "run",
      "hi",
      "--session",
      "x",
      "--script",
      "none.json",
    ]);
    assert.equal(sessionAlone.code, 2);
    assert.match(sessionAlone.stderr, /--session is for durable runs \(--durable restate\)/);
    const unreachable = await runCli(workspace, [
      "run",
      "hi",
      "--durable",
      "restate",
      "--ingress",
      "http://127.0.0.1:1",
      "--json",
    ]);
    assert.equal(unreachable.code, 1);
    const failure = parseJson<{ stop_reason: string; error: { code: string; message: string } }>(
      unreachable,
    );
    assert.equal(failure.stop_reason, "error");
    assert.equal(failure.error.code, "restate_unreachable");
    assert.match(failure.error.message, /Cannot reach Restate at http:\/\/127\.0\.0\.1:1/);
  });
});
