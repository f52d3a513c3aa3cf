// A run started from the studio with an output schema: the answer checked against it, repaired
// once, and failed when it still misses.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createAgent } from "@pseudoclaude/core";
import { ApprovalDesk, startStudio } from "@pseudoclaude/studio";
import { ScriptedProvider } from "@pseudoclaude/testing";

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
