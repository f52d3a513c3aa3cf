// A tool that describes itself by the tools sent with it (code mode declares them): the offer
// carries its own definition for the tools of that request, and follows the registry.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createAgent, definePlugin, type Tool } from "@pseudoclaude/core";
import { createTestTool, InMemoryToolSource } from "@pseudoclaude/testing";

const describer: Tool = {
  ...createTestTool({ name: "describer", safety: "read_only" }),
  offeredDefinition(sent) {
    const others = sent.map((tool) => tool.name).filter((name) => name !== "describer");
    return { ...this.definition, description: `Sent with: ${others.join(", ")}` };
  },
};

describe("a tool's offered definition", () => {
  it("is built from what the request sends, and follows the registry", async () => {
    const source = new InMemoryToolSource("memory", [
      describer,
      createTestTool({ name: "alpha", safety: "read_only" }),
    ]);
    const agent = await createAgent({
      config: false,
      plugins: [definePlugin({ name: "m", register: (c) => void c.addToolSource(source) })],
    });
    try {
      const sent = () => agent.toolOffer().sent.find((tool) => tool.name === "describer");
      assert.equal(sent()?.description, "Sent with: alpha");
      assert.equal(agent.registry.get("describer")?.definition.description, "Test tool describer.");
      source.upsert(createTestTool({ name: "beta", safety: "read_only" }));
      assert.equal(sent()?.description, "Sent with: alpha, beta");
    } finally {
      await agent.close();
    }
  });
});
