// MCP Apps' `_meta.ui.visibility` as a tool's audience: read from what a server lists (the
// published shape, and shapes no server should send), and from a real App server over stdio
// through an agent: an app-only tool is the view's, a model-only tool is the model's.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { LoadedConfig } from "@pseudoclaude/core";
import { DefaultRedactor } from "@pseudoclaude/core/plugin";
import { adaptServerTools } from "../src/adapt/adapt-server-tools.js";
import type { RemoteCaller } from "../src/adapt/adapt-tool.js";
import { toolAudience } from "../src/adapt/tool-audience.js";
import { loadServers } from "../src/index.js";
import { mcpAgent, stdioFixture } from "./support/mcp-fixtures.js";

const [server] = loadServers(LoadedConfig.fromTexts({}), {
  workspace: "/ws",
  redactor: new DefaultRedactor(),
  env: {},
  codeServers: { views: { command: "node" } },
  consent: { isApproved: () => true },
}).servers;

const nobody: RemoteCaller = {
  call: () => Promise.reject(new Error("not called")),
};

describe("a tool's audience from _meta.ui.visibility", () => {
  it("reads the extension's values as it does, and warns once of a declaration that is not a list", () => {
    assert.deepEqual(toolAudience(undefined), {});
    assert.deepEqual(toolAudience({ ui: { resourceUri: "ui://x" } }), {});
    assert.deepEqual(toolAudience({ ui: { visibility: ["app"] } }), { audience: ["app"] });
    assert.deepEqual(toolAudience({ ui: { visibility: ["model"] } }), { audience: ["model"] });
    assert.deepEqual(toolAudience({ ui: { visibility: ["app", "model"] } }), {});
    assert.deepEqual(toolAudience({ ui: { visibility: ["app", "app", 7] } }), {
      audience: ["app"],
    });
    assert.deepEqual(toolAudience({ ui: { visibility: "app" } }), { invalid: "app" });
    // Neither value named: neither audience (a person may still call it).
    assert.deepEqual(toolAudience({ ui: { visibility: [] } }), { audience: [] });

    const { tools, diagnostics } = adaptServerTools(
      server!,
      [
        { name: "refresh", meta: { ui: { visibility: ["app"] } } },
        { name: "typo", meta: { ui: { visibility: "app" } } },
        { name: "plain" },
      ],
      nobody,
    );
    const audiences = tools.map((tool) => tool.definition.audience);
    assert.deepEqual(audiences, [["app"], undefined, undefined]);
    const warned = diagnostics.filter((diagnostic) => diagnostic.code === "invalid_visibility");
    assert.equal(warned.length, 1);
    assert.equal(warned[0]?.item, "views/typo");
    assert.match(warned[0]?.message ?? "", /"app", not a list of "model" and "app"/);
  });

  it("keeps an App server's app-only tool from the model and its model-only tool from views", async () => {
    const agent = await mcpAgent(
      { counter: stdioFixture("app-server") },
      { policy: { mode: "bypass" } },
    );
    try {
      const audience = (name: string) => agent.registry.get(name)?.definition.audience;
      assert.deepEqual(audience("mcp__counter__reset"), ["app"]);
      assert.deepEqual(audience("mcp__counter__announce"), ["model"]);
      assert.equal(audience("mcp__counter__increment"), undefined);
      const offered = agent.offeredTools().map((tool) => tool.name);
      assert.ok(offered.includes("mcp__counter__announce"));
      assert.ok(!offered.includes("mcp__counter__reset"), offered.join(", "));

      const fromApp = { source: "mcp:counter" };
      await agent.callTool("mcp__counter__increment", { by: 3 });
      const reset = await agent.callTool("mcp__counter__reset", {}, { fromApp });
      assert.equal(reset.result.ok, true, JSON.stringify(reset.result));
      assert.deepEqual(reset.result.ok && reset.result.structured, { count: 0 });
      const announce = await agent.callTool("mcp__counter__announce", {}, { fromApp });
      assert.equal(announce.result.ok, false);
      assert.deepEqual(announce.decision.matched, { kind: "audience", caller: "app" });
    } finally {
      await agent.close();
    }
  });
});
