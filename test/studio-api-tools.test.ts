// The studio's tools as another UI sees them: the policy's decision per tool, and a call that
// asks, approved and denied in the "page".
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type StudioApi, startStudioApi, written } from "./support/studio-api.js";

describe("the studio's API", () => {
  let harness: StudioApi;
  let api: StudioApi["api"];
  let feed: StudioApi["feed"];

  before(async () => {
    harness = await startStudioApi();
    ({ api, feed } = harness);
  });
  after(async () => {
    await harness?.close();
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
});
