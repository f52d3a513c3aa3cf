// An agent given no tracer provider: nothing recorded and no trace handed to tools, a provider
// registered globally later still picked up, and an agent that never traces never loads the API.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { trace } from "@opentelemetry/api";
import { createAgent } from "@pseudoclaude/core";
import { ScriptedProvider } from "@pseudoclaude/testing";
import { captureTraces } from "./support/trace-capture.js";
import { readThenAnswer, tracedAgent } from "./support/traced-agent.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

describe("tracing", () => {
  it("without a tracer provider nothing is recorded and tools get no trace", async () => {
    const { agent, capture, read } = await tracedAgent(readThenAnswer, { traced: false });
    try {
      await agent.run("What do the notes say?");
      assert.equal(read.calls.length, 1);
      assert.equal(read.calls[0]!.context.trace, undefined);
      assert.equal(capture.spans().length, 0);
    } finally {
      await agent.close();
    }
  });

  it("a tracer provider registered globally after the agent was made still gets its runs", async () => {
    const capture = captureTraces();
    const agent = await createAgent({
      config: false,
      provider: new ScriptedProvider([{ text: "before" }, { text: "after" }]),
    });
    try {
      await agent.run("untraced");
      assert.equal(capture.spans().length, 0);
      assert.equal(trace.setGlobalTracerProvider(capture.tracerProvider), true);
      await agent.run("traced");
      assert.equal(capture.named("invoke_agent pseudoclaude").length, 1);
      assert.equal(capture.named("chat script").length, 1);
    } finally {
      trace.disable();
      await agent.close();
    }
  });

  it("an agent that never traces never loads the OpenTelemetry API", () => {
    // A fresh process: this one loaded the API for the tests above.
    const script = `
      import { createRequire } from "node:module";
      import { createAgent } from "@pseudoclaude/core";
      import { ScriptedProvider } from "@pseudoclaude/testing";
      const agent = await createAgent({ config: false, provider: new ScriptedProvider([{ text: "hi" }]) });
      await agent.run("hello");
      await agent.callTool("nothing", {});
      await agent.close();
      const loaded = Object.keys(createRequire(import.meta.url).cache);
      console.log(JSON.stringify(loaded.filter((file) => file.includes("@opentelemetry"))));
    `;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: repoRoot,
      encoding: "utf8",
    });
    assert.deepEqual(JSON.parse(out.trim().split("\n").at(-1)!), []);
  });
});
