// A run through the studio's API, in order: followed over the live feed and the next one
// cancelled, its in-process spans, then the sessions it left listed, opened, resumed and deleted.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type Agent, type MemorySessionStore } from "@pseudoclaude/core";
import { released, type StudioApi, startStudioApi } from "./support/studio-api.js";

describe("the studio's API", () => {
  let harness: StudioApi;
  let agent: Agent;
  let store: MemorySessionStore;
  let api: StudioApi["api"];
  let feed: StudioApi["feed"];

  before(async () => {
    harness = await startStudioApi();
    ({ agent, store, api, feed } = harness);
  });
  after(async () => {
    await harness?.close();
  });

  it("runs a prompt, streams its events, and cancels the next run's turn", async () => {
    const events = feed();
    try {
      const started = await api("/api/runs", {
        method: "POST",
        body: JSON.stringify({ prompt: "What is tea?" }),
      });
      assert.equal(started.status, 202);
      const { id } = (await started.json()) as { id: string };
      await events.waitFor(
        (event) =>
          event.type === "run-state" &&
          (event.run as { id: string; state: string }).state === "done",
      );
      const run = (await (await api(`/api/runs/${id}`)).json()) as {
        state: string;
        events: Array<{ type: string; decision?: { verdict: string }; durationMs?: number }>;
        result: { text: string; usage: { inputTokens: number } };
      };
      assert.equal(run.state, "done");
      assert.equal(run.result.text, "Tea is a small word.");
      assert.equal(run.result.usage.inputTokens, 12);
      const types = run.events.map((event) => event.type);
      for (const type of [
        "run-start",
        "turn-start",
        "tool-decision",
        "tool-run-end",
        "turn-end",
        "run-end",
      ])
        assert.ok(types.includes(type), `${type} in ${types.join()}`);
      assert.equal(
        run.events.find((event) => event.type === "tool-decision")?.decision?.verdict,
        "allow",
      );
      const relayed = events.events.filter(
        (event) => event.type === "run-event" && event.runId === id,
      );
      assert.equal(relayed.length, run.events.length, "every event reached the live feed");
      assert.deepEqual(
        relayed.map((event) => event.index),
        run.events.map((_, index) => index),
        "each with its place in the run",
      );

      const second = (await (
        await api("/api/runs", { method: "POST", body: JSON.stringify({ prompt: "Wait." }) })
      ).json()) as { id: string };
      await events.waitFor(
        (event) =>
          event.type === "run-event" &&
          event.runId === second.id &&
          (event.event as { type: string }).type === "tool-run-start",
      );
      const busy = await api("/api/runs", {
        method: "POST",
        body: JSON.stringify({ prompt: "x" }),
      });
      assert.equal(busy.status, 400);
      assert.equal(
        ((await busy.json()) as { error: { code: string } }).error.code,
        "run_in_progress",
      );
      const cancel = await api("/api/runs/current/cancel", { method: "POST" });
      assert.deepEqual(await cancel.json(), { cancelled: true });
      const ended = await events.waitFor(
        (event) =>
          event.type === "run-state" &&
          (event.run as { id: string; state: string }).id === second.id &&
          (event.run as { state: string }).state !== "running",
      );
      assert.equal((ended.run as { state: string }).state, "cancelled");
      assert.equal(released !== undefined, true, "the slow tool had started");
    } finally {
      events.close();
    }
  });

  it("records the run's spans in process", async () => {
    const { recording, spans: list } = (await (await api("/api/traces")).json()) as {
      recording: boolean;
      spans: Array<{
        name: string;
        traceId: string;
        parentSpanId?: string;
        endMs: number;
        startMs: number;
      }>;
    };
    assert.equal(recording, true);
    assert.ok(
      list.some((span) => span.name.startsWith("invoke_agent")),
      list.map((s) => s.name).join(),
    );
    assert.ok(
      list.some((span) => span.name === "execute_tool lookup"),
      list.map((s) => s.name).join(),
    );
    for (const span of list) assert.ok(span.endMs >= span.startMs);
  });

  it("lists, opens, resumes and deletes sessions", async () => {
    const { sessions, current } = (await (await api("/api/sessions")).json()) as {
      sessions: Array<{ id: string; turns: number }>;
      current: string;
    };
    assert.equal(current, agent.sessionId);
    assert.ok(sessions.some((session) => session.id === current));
    const opened = (await (await api(`/api/sessions/${current}`)).json()) as {
      entries: Array<{ type: string }>;
      messages: Array<{ role: string }>;
    };
    assert.ok(opened.entries.some((entry) => entry.type === "turn"));
    assert.ok(opened.messages.length >= 4, JSON.stringify(opened.messages.length));

    await store.append("older", [
      {
        type: "session",
        version: 1,
        id: "older",
        workspace: agent.workspace,
        created: new Date().toISOString(),
      },
      {
        type: "turn",
        at: new Date().toISOString(),
        messages: [
          { role: "user", content: "an older question" },
          { role: "assistant", text: "an older answer", toolCalls: [] },
        ],
      },
    ]);
    const inUse = await api(`/api/sessions/${current}`, { method: "DELETE" });
    assert.equal(inUse.status, 409);
    const resumed = await api("/api/sessions/older/resume", { method: "POST" });
    assert.equal(resumed.status, 200, await resumed.clone().text());
    assert.equal(agent.sessionId, "older");
    assert.equal(agent.conversation.length, 2);
    const removed = await api(`/api/sessions/${current}`, { method: "DELETE" });
    assert.deepEqual(await removed.json(), { id: current, removed: true });
    const missing = await api("/api/sessions/nothing-here");
    assert.equal(missing.status, 404);
  });
});
