// The studio's API as another UI would use it: the token, the Host and Origin checks, tools
// with the policy's decisions, a call approved and one denied in the "page", a run followed
// over the live feed and cancelled, sessions listed, opened, resumed and deleted, and the
// in-process spans. A real agent (scripted model, inline tools) behind a real HTTP server.
import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { networkInterfaces } from "node:os";
import { after, before, describe, it } from "node:test";
import { type Agent, createAgent, defineTool, MemorySessionStore } from "@pseudoclaude/core";
import { ApprovalDesk, SpanRecorder, type Studio, startStudio } from "@pseudoclaude/studio";
import { ScriptedProvider, type ScriptedStep } from "@pseudoclaude/testing";
import { z } from "zod";

const lookup = defineTool({
  name: "lookup",
  description: "Looks a word up.",
  input: z.object({ word: z.string(), times: z.number().int().default(1) }),
  safety: "read_only",
  execute: ({ word }) => `${word}: a small word.`,
});

const written: string[] = [];
const note = defineTool({
  name: "write_note",
  description: "Writes a note.",
  input: z.object({ text: z.string() }),
  safety: "side_effect",
  execute: ({ text }) => {
    written.push(text);
    return `noted: ${text}`;
  },
});

let released: (() => void) | undefined;
const slow = defineTool({
  name: "slow",
  description: "Waits until cancelled.",
  input: z.object({}),
  safety: "read_only",
  execute: (_args, context) =>
    new Promise<string>((resolve) => {
      released = () => resolve("released");
      context.signal.addEventListener("abort", () => resolve("stopped"));
    }),
});

const SCRIPT: ScriptedStep[] = [
  { tool_calls: [{ id: "a1", name: "lookup", arguments: { word: "tea" } }] },
  { text: "Tea is a small word.", usage: { input_tokens: 12, output_tokens: 5 } },
  { tool_calls: [{ id: "s1", name: "slow", arguments: {} }] },
  { text: "never reached" },
];

/** GET /api/agent with this Host header, through node:http (fetch cannot set Host). */
function statusWithHost(port: number, host: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: "127.0.0.1", port, path: "/api/agent", headers: { host, "x-studio-token": token } },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on("error", reject);
    request.end();
  });
}

interface Feed {
  events: Array<Record<string, unknown>>;
  waitFor(test: (event: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  close(): void;
}

describe("the studio's API", () => {
  let agent: Agent;
  let studio: Studio;
  const desk = new ApprovalDesk();
  let spans: SpanRecorder;
  const store = new MemorySessionStore();
  let api: (path: string, init?: RequestInit) => Promise<Response>;

  before(async () => {
    spans = await SpanRecorder.start();
    agent = await createAgent({
      tools: [lookup, note, slow],
      provider: new ScriptedProvider(SCRIPT),
      config: false,
      approve: desk.approver,
      elicit: desk.elicitor,
      session: { store },
      tracing: { tracerProvider: spans.tracerProvider },
    });
    studio = await startStudio({ agent, desk, spans });
    api = (path, init = {}) =>
      fetch(`http://127.0.0.1:${studio.port}${path}`, {
        ...init,
        headers: { "x-studio-token": studio.token, ...(init.headers ?? {}) },
      });
  });
  after(async () => {
    await studio.close();
    await agent.close();
    await spans.shutdown();
  });

  function feed(): Feed {
    const controller = new AbortController();
    const events: Array<Record<string, unknown>> = [];
    const waiters: Array<() => void> = [];
    const done = (async () => {
      const response = await api("/api/events", { signal: controller.signal });
      assert.equal(response.headers.get("content-type"), "text/event-stream; charset=utf-8");
      const decoder = new TextDecoder();
      let buffer = "";
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end = buffer.indexOf("\n\n");
        while (end >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (frame.startsWith("data: ")) events.push(JSON.parse(frame.slice(6)));
          for (const waiter of waiters.splice(0)) waiter();
          end = buffer.indexOf("\n\n");
        }
      }
    })().catch(() => {});
    void done;
    return {
      events,
      async waitFor(test) {
        for (;;) {
          const found = events.find(test);
          if (found) return found;
          await new Promise<void>((resolve) => waiters.push(resolve));
        }
      },
      close: () => controller.abort(),
    };
  }

  it("refuses a request without the token, through another Host, or from another origin", async () => {
    const base = `http://127.0.0.1:${studio.port}`;
    const bare = await fetch(`${base}/api/agent`);
    assert.equal(bare.status, 401);
    assert.equal(((await bare.json()) as { error: { code: string } }).error.code, "token_required");
    const wrong = await fetch(`${base}/api/agent`, { headers: { "x-studio-token": "nope" } });
    assert.equal(wrong.status, 401);
    const page = await fetch(`${base}/`);
    assert.equal(page.status, 401, "the page itself needs the token");

    // fetch cannot set Host (a forbidden header); a page rebinding a DNS name sends its own.
    const rebound = await statusWithHost(
      studio.port,
      `attacker.example:${studio.port}`,
      studio.token,
    );
    assert.equal(rebound, 421);

    const crossSite = await api("/api/mode", {
      method: "POST",
      headers: { origin: "https://attacker.example" },
      body: JSON.stringify({ mode: "bypass" }),
    });
    assert.equal(crossSite.status, 403);
    assert.equal(agent.mode, "default", "a cross-site request changed nothing");

    // The URL the CLI prints: the token moves into an HttpOnly cookie and out of the address.
    const opened = await fetch(studio.url, { redirect: "manual" });
    assert.equal(opened.status, 303);
    assert.equal(opened.headers.get("location"), "/");
    const cookie = opened.headers.get("set-cookie") ?? "";
    assert.match(cookie, /HttpOnly; SameSite=Strict/);
    const withCookie = await fetch(`${base}/api/agent`, {
      headers: { cookie: cookie.split(";")[0] ?? "" },
    });
    assert.equal(withCookie.status, 200);
  });

  it("listens on 127.0.0.1 and nowhere else", async () => {
    const others = Object.values(networkInterfaces())
      .flat()
      .filter((address) => address && address.family === "IPv4" && !address.internal);
    for (const address of others) {
      const reached = await fetch(`http://${address?.address}:${studio.port}/api/agent`, {
        headers: { "x-studio-token": studio.token },
      }).then(
        () => true,
        () => false,
      );
      assert.equal(reached, false, `reachable on ${address?.address}`);
    }
    const ipv6 = await fetch(`http://[::1]:${studio.port}/api/agent`).then(
      () => true,
      () => false,
    );
    assert.equal(ipv6, false, "reachable on ::1");
  });

  it("lists the tools with the policy's decision, schema and safety", async () => {
    const response = await api("/api/tools");
    assert.equal(response.status, 200);
    const { tools } = (await response.json()) as {
      tools: Array<{
        name: string;
        source: string;
        safety: string;
        offered: boolean;
        decision: { verdict: string; reason: string };
        inputSchema: { properties: Record<string, unknown> };
      }>;
    };
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    assert.equal(byName.get("lookup")?.decision.verdict, "allow");
    assert.equal(byName.get("write_note")?.decision.verdict, "ask");
    assert.equal(byName.get("write_note")?.safety, "side_effect");
    assert.equal(byName.get("lookup")?.source, "code");
    assert.deepEqual(Object.keys(byName.get("lookup")?.inputSchema.properties ?? {}), [
      "word",
      "times",
    ]);
  });

  it("calls a tool through the policy: an ask waits for the page, allowed or denied there", async () => {
    const events = feed();
    try {
      const call = api("/api/tools/write_note/call", {
        method: "POST",
        body: JSON.stringify({ arguments: { text: "buy milk" } }),
      });
      const asked = await events.waitFor((event) => event.type === "approval");
      const approval = asked.approval as { id: string; tool: string; sessionKey: string };
      assert.equal(approval.tool, "write_note");
      assert.equal(written.length, 0, "nothing ran before the answer");
      const pending = (await (await api("/api/approvals")).json()) as { pending: unknown[] };
      assert.equal(pending.pending.length, 1);
      const answer = await api(`/api/approvals/${approval.id}`, {
        method: "POST",
        body: JSON.stringify({ verdict: "allow" }),
      });
      assert.equal(answer.status, 200);
      const outcome = (await (await call).json()) as {
        decision: { verdict: string };
        approval: string;
        result: { ok: boolean; content: Array<{ text: string }> };
      };
      assert.equal(outcome.decision.verdict, "ask");
      assert.equal(outcome.approval, "approved");
      assert.equal(outcome.result.content[0]?.text, "noted: buy milk");
      assert.deepEqual(written, ["buy milk"]);

      const second = api("/api/tools/write_note/call", {
        method: "POST",
        body: JSON.stringify({ arguments: { text: "sell milk" } }),
      });
      const askedAgain = await events.waitFor(
        (event) =>
          event.type === "approval" && (event.approval as { id: string }).id !== approval.id,
      );
      await api(`/api/approvals/${(askedAgain.approval as { id: string }).id}`, {
        method: "POST",
        body: JSON.stringify({ verdict: "deny", reason: "not today" }),
      });
      const denied = (await (await second).json()) as {
        approval: string;
        result: { ok: boolean; error: { code: string; message: string } };
      };
      assert.equal(denied.approval, "rejected");
      assert.equal(denied.result.ok, false);
      assert.match(denied.result.error.message, /not today/);
      assert.deepEqual(written, ["buy milk"], "the denied call never ran");

      const late = await api(`/api/approvals/${approval.id}`, {
        method: "POST",
        body: JSON.stringify({ verdict: "allow" }),
      });
      assert.equal(late.status, 404, "an answered approval cannot be answered again");
      const bad = await api("/api/tools/write_note/call", { method: "POST", body: "{oops" });
      assert.equal(bad.status, 400);
      assert.equal(((await bad.json()) as { error: { code: string } }).error.code, "invalid_json");
      const unknown = await api("/api/tools/nope/call", { method: "POST", body: "{}" });
      assert.equal(unknown.status, 404);
    } finally {
      events.close();
    }
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

describe("a run with structured output from the studio", () => {
  it("checks the final answer against the schema the page sent", async () => {
    const desk = new ApprovalDesk();
    const agent = await createAgent({
      provider: new ScriptedProvider([
        { output: { date: "Friday" } },
        { output: { when: "Friday" } },
        { output: { when: "still wrong" } },
      ]),
      config: false,
      approve: desk.approver,
    });
    const studio = await startStudio({ agent, desk });
    const api = (path: string, body?: unknown) =>
      fetch(`http://127.0.0.1:${studio.port}${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers: { "x-studio-token": studio.token },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    try {
      const schema = {
        type: "object",
        properties: { date: { type: "string" } },
        required: ["date"],
        additionalProperties: false,
      };
      const bad = await api("/api/runs", { prompt: "When?", outputSchema: [1] });
      assert.equal(bad.status, 400);
      assert.equal(
        ((await bad.json()) as { error: { code: string } }).error.code,
        "invalid_output_schema",
      );
      const { id } = (await (
        await api("/api/runs", { prompt: "When?", outputSchema: schema })
      ).json()) as { id: string };
      let run: { state: string; result?: { output?: unknown }; outputSchema?: unknown } = {
        state: "running",
      };
      for (let tries = 0; run.state === "running" && tries < 100; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        run = (await (await api(`/api/runs/${id}`)).json()) as typeof run;
      }
      assert.equal(run.state, "done");
      assert.deepEqual(run.result?.output, { date: "Friday" });
      assert.deepEqual(run.outputSchema, schema);

      // An answer that misses the schema is sent back once (output-repair), then fails the run.
      const second = (await (
        await api("/api/runs", { prompt: "When again?", outputSchema: schema })
      ).json()) as { id: string };
      let failed: { state: string; error?: string; events?: Array<{ type: string }> } = {
        state: "running",
      };
      for (let tries = 0; failed.state === "running" && tries < 100; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        failed = (await (await api(`/api/runs/${second.id}`)).json()) as typeof failed;
      }
      assert.equal(failed.state, "failed");
      assert.ok(failed.events?.some((event) => event.type === "output-repair"));
      assert.match(failed.error ?? "", /schema|date/i);
    } finally {
      await studio.close();
      await agent.close();
    }
  });
});
