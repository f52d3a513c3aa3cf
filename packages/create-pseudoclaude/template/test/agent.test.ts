// The whole agent of src/agent.ts, offline: the real filesystem MCP server, the word_count
// tool and the project-tour skill, with a scripted model instead of a real one, so the test
// needs no key and always plays the same steps. `npm test` builds, then runs it.
import assert from "node:assert/strict";
import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import type { Agent } from "@pseudoclaude/core";
import { createStarterAgent } from "../src/agent.js";
import { DEMO_TASK, offlineModel } from "../src/offline-model.js";

describe("the starter agent", () => {
  let workspace: string;
  before(async () => {
    workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), "starter-test-")));
    await writeFile(path.join(workspace, "README.md"), "# Demo\n\nThree more words.\n");
  });
  after(() => rm(workspace, { recursive: true, force: true }));

  async function withAgent(readme: string, test: (agent: Agent) => Promise<void>) {
    const agent = await createStarterAgent({
      workspace,
      provider: offlineModel(workspace, readme),
    });
    try {
      await test(agent);
    } finally {
      await agent.close();
    }
  }

  it("offers the MCP server's tools, the custom tool and the skills' tools", async () => {
    await withAgent("", async (agent) => {
      const names = agent.registry.definitions().map((tool) => tool.name);
      for (const name of ["mcp__filesystem__list_directory", "word_count", "load_skill"])
        assert.ok(names.includes(name), `${name} in ${names.join(", ")}`);
    });
  });

  it("runs the demo task: every call allowed and ok, the tool's answer in the conversation", async () => {
    await withAgent("# Demo\n\nThree more words.\n", async (agent) => {
      const result = await agent.run(DEMO_TASK);
      assert.equal(result.stopReason, "end_turn");
      assert.deepEqual(
        result.toolCalls.map((call) => [call.name, call.decision.verdict, call.result.ok]),
        [
          ["mcp__filesystem__list_directory", "allow", true],
          ["load_skill", "allow", true],
          ["word_count", "allow", true],
        ],
      );
      const listing = result.toolCalls[0]?.result.content[0];
      assert.match(listing?.type === "text" ? listing.text : "", /README\.md/);
      const counted = result.toolCalls[2]?.result.content[0];
      assert.equal(counted?.type === "text" ? counted.text : "", "5 words, 4 lines");
    });
  });
});
