// A code-mode program's calls in a trace: each inner call is an execute_tool span whose parent
// is the program's own execute_tool span, with its decision recorded as every call's is.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { codeMode } from "@pseudoclaude/plugin-code-mode";
import { tracedAgent } from "./support/traced-agent.js";

const PROGRAM = `
const first = await tools.read_file({ path: "notes.md" });
await tools.read_file({ path: "other.md" });
return [typeof tools.write_file, first];`;

describe("code mode in a trace", () => {
  it("nests each inner call's execute_tool span under the program's", async () => {
    const { agent, capture } = await tracedAgent(
      [
        { tool_calls: [{ id: "p1", name: "code_mode", arguments: { code: PROGRAM } }] },
        { text: "Read it." },
      ],
      { extra: [codeMode({ mode: "on" })] },
    );
    try {
      const result = await agent.run("read the notes");
      assert.equal(result.text, "Read it.");
      const program = capture.one("execute_tool code_mode");
      const reads = capture.named("execute_tool read_file");
      assert.equal(reads.length, 2);
      for (const inner of reads) {
        assert.equal(inner.parentSpanContext?.spanId, program.spanContext().spanId);
        assert.equal(inner.spanContext().traceId, program.spanContext().traceId);
        assert.equal(inner.attributes["pseudoclaude.policy.verdict"], "allow");
      }
      assert.deepEqual(reads.map((span) => span.attributes["gen_ai.tool.call.id"]).sort(), [
        "p1.0",
        "p1.1",
      ]);
      // A tool the policy denies outright is not offered, to the model or to a program.
      assert.match(JSON.stringify(result.toolCalls[0]?.result.content), /\[\\"undefined\\"/);
      const run = capture.one("invoke_agent pseudoclaude");
      assert.equal(program.parentSpanContext?.spanId, run.spanContext().spanId);
    } finally {
      await agent.close();
    }
  });
});
