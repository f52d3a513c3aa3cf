// What an MCP App view may say to the model through the studio: `ui/update-model-context`
// (kept for the next turn, a newer update replacing the older, sent once) and `ui/message` (the
// conversation's next prompt, recorded as the view's). The page asks the person before a
// message is sent; here the routes the page calls are driven as it calls them, against a
// real agent with the App fixture over stdio and a scripted model that records its requests.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Studio } from "@pseudoclaude/studio";
import { ScriptedProvider } from "@pseudoclaude/testing";
import { type CounterStudio, startCounterStudio } from "./support/counter-studio.js";

const APP = "mcp__counter__show_counter";

describe("an MCP App view's message and context in the studio", () => {
  let running: CounterStudio;
  let studio: Studio;
  const provider = new ScriptedProvider([{ text: "Five it is." }, { text: "Still five." }]);
  const post = (path: string, body: unknown) =>
    fetch(`http://127.0.0.1:${studio.port}${path}`, {
      method: "POST",
      headers: { "x-studio-token": studio.token, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const get = async (path: string) =>
    (
      await fetch(`http://127.0.0.1:${studio.port}${path}`, {
        headers: { "x-studio-token": studio.token },
      })
    ).json();

  /** The run's record once it ended. */
  async function ended(id: string): Promise<Record<string, unknown>> {
    for (const started = Date.now(); Date.now() - started < 10_000; ) {
      const run = (await get(`/api/runs/${id}`)) as Record<string, unknown>;
      if (run.state !== "running") return run;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`run ${id} did not end`);
  }

  before(async () => {
    running = await startCounterStudio({ provider });
    studio = running.studio;
  });

  after(() => running?.close());

  it("sends the view's latest context with the next prompt, once, and its message as a prompt", async () => {
    const first = await post(`/api/apps/${APP}/context`, {
      content: [{ type: "text", text: "The count was 3." }],
    });
    assert.equal(first.status, 200);
    await post(`/api/apps/${APP}/context`, {
      content: [{ type: "text", text: "The count is 5." }],
      structuredContent: { count: 5 },
    });
    const sent = await post(`/api/apps/${APP}/message`, {
      role: "user",
      content: [{ type: "text", text: "Explain the count." }],
    });
    assert.equal(sent.status, 202);
    const run = await ended(((await sent.json()) as { id: string }).id);
    assert.equal(run.state, "done");
    assert.equal(run.prompt, "Explain the count.");
    assert.equal(run.fromApp, APP);
    assert.deepEqual(run.appContext, [{ app: APP, text: 'The count is 5.\n{"count":5}' }]);
    const asked = JSON.stringify(provider.requests[0]?.messages.at(-1));
    assert.match(asked, /Explain the count\./);
    assert.match(asked, /<app-context view=\\"mcp__counter__show_counter\\">/);
    assert.match(asked, /The count is 5\./);
    assert.doesNotMatch(asked, /The count was 3\./, "a newer update replaces the older");

    // Sent once: the next prompt carries no context.
    const again = await post("/api/runs", { prompt: "And now?" });
    const second = await ended(((await again.json()) as { id: string }).id);
    assert.equal(second.appContext, undefined);
    assert.doesNotMatch(JSON.stringify(provider.requests[1]?.messages.at(-1)), /app-context/);
  });

  it("refuses an empty message and a tool that has no view", async () => {
    const empty = await post(`/api/apps/${APP}/message`, { content: [{ type: "image" }] });
    assert.equal(empty.status, 400);
    const notApp = await post("/api/apps/mcp__counter__peek/message", {
      content: [{ type: "text", text: "hi" }],
    });
    assert.equal(notApp.status, 404);
  });
});
