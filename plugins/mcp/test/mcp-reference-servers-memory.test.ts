// End to end over real stdio: the official server-memory driven by a scripted agent run.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import { textOf } from "@pseudoclaude/core";
import { createTempWorkspace, ScriptedProvider } from "@pseudoclaude/testing";
import { MEMORY, startAgent, TIMEOUT } from "./support/mcp-reference-servers.js";

describe("server-memory over stdio", () => {
  it(
    "creates an entity and reads the graph back through a scripted agent run",
    TIMEOUT,
    async () => {
      const workspace = await createTempWorkspace("pc-e2e-memory-");
      const memoryFile = path.join(workspace.root, "memory.jsonl");
      const entity = {
        name: "Ada",
        entityType: "person",
        observations: ["wrote the first program"],
      };
      const provider = new ScriptedProvider([
        {
          tool_calls: [{ name: "mcp__memory__create_entities", arguments: { entities: [entity] } }],
        },
        { tool_calls: [{ name: "mcp__memory__read_graph", arguments: {} }] },
        { text: "done" },
      ]);
      const harness = await startAgent(
        {
          memory: {
            type: "stdio",
            command: process.execPath,
            args: [MEMORY],
            // Always: without it the server writes next to its own package.
            env: { MEMORY_FILE_PATH: memoryFile },
          },
        },
        { provider, approve: () => "allow" },
        workspace,
      );
      try {
        const result = await harness.agent.run("Remember Ada, then show the graph.");
        assert.equal(result.stopReason, "end_turn");
        assert.equal(result.text, "done");
        assert.deepEqual(
          result.toolCalls.map((call) => [
            call.name,
            call.decision.verdict,
            call.approval,
            call.result.ok,
          ]),
          [
            ["mcp__memory__create_entities", "ask", "approved", true],
            ["mcp__memory__read_graph", "ask", "approved", true],
          ],
        );
        const [created, graph] = result.toolCalls;
        assert.deepEqual(created!.result.structured, { entities: [entity] });
        assert.deepEqual(graph!.result.structured, { entities: [entity], relations: [] });
        assert.deepEqual(JSON.parse(textOf(graph!.result.content)), graph!.result.structured);
        assert.equal(graph!.result.metadata.remote_tool, "read_graph");

        // The model saw the graph, and the server wrote where MEMORY_FILE_PATH told it to.
        const lastRequest = provider.requests[2]!;
        const toolMessage = lastRequest.messages.at(-1);
        assert.ok(
          toolMessage?.role === "tool" && toolMessage.toolName === "mcp__memory__read_graph",
        );
        assert.ok(provider.requests[0]!.toolNames.includes("mcp__memory__read_graph"));
        assert.match(await readFile(memoryFile, "utf8"), /"name":"Ada"/);
      } finally {
        await harness.dispose();
      }
    },
  );
});
