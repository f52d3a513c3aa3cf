// An MCP App server's tools by audience (`_meta.ui.visibility`), as users meet them: the
// request a model server receives (the real `openai` SDK against a local server of ours), the
// CLI's `tools --json` and table, and what the gateway lists to its clients. The App server is
// the plugin's fixture over real stdio: `reset` is for its view only, `announce` for the model.
import assert from "node:assert/strict";
import os from "node:os";
import { after, before, describe, it } from "node:test";
import { createAgent } from "@pseudoclaude/core";
import { GatewaySettingsToken, GatewayTools, gatewayPlugin } from "@pseudoclaude/gateway";
import { mcp } from "@pseudoclaude/plugin-mcp";
import { openai } from "@pseudoclaude/provider-openai";
import { createTempWorkspace } from "@pseudoclaude/testing";
import { fixture, scratch, stdioFixture } from "#mcp-test/mcp-fixtures.js";
import { chatStream } from "./fixtures/providers/openai-wire.js";
import { startWireServer, type WireServer } from "./fixtures/providers/wire-server.js";
import { parseJson, runCli } from "./support/cli.js";
import { OPENAI_TEST_KEY } from "./support/provider-harness-openai.js";

const RESET = "mcp__counter__reset";
const ANNOUNCE = "mcp__counter__announce";

describe("an MCP App server's app-only and model-only tools", () => {
  let server: WireServer;
  before(async () => {
    server = await startWireServer("/v1");
  });
  after(() => server.close());

  it("never sends the model an app-only tool, and refuses its call to one", async () => {
    const log = await scratch();
    server.reset();
    server.reply(
      chatStream({ toolCalls: [{ name: RESET, input: {} }] }),
      chatStream({ text: "It is not mine to reset." }),
    );
    const agent = await createAgent({
      config: false,
      workspace: os.tmpdir(),
      policy: { mode: "bypass" },
      provider: openai({
        baseURL: server.baseURL,
        apiKey: OPENAI_TEST_KEY,
        maxRetries: 0,
        env: {},
        api: "chat",
      }),
      plugins: [
        mcp({
          servers: { counter: stdioFixture("app-server", { env: { FIXTURE_LOG: log.log } }) },
        }),
      ],
    });
    try {
      const result = await agent.run("Reset the counter.");
      assert.equal(server.requests.length, 2);
      for (const request of server.requests) {
        const names = (request.body.tools as Array<{ function: { name: string } }>).map(
          (tool) => tool.function.name,
        );
        assert.ok(names.includes(ANNOUNCE), names.join(", "));
        assert.ok(names.includes("mcp__counter__increment"));
        assert.ok(!names.includes(RESET), `the model was sent ${RESET}`);
      }
      const refused = result.toolCalls.find((call) => call.name === RESET);
      assert.equal(refused?.result.ok, false);
      assert.match(refused?.decision.reason ?? "", /for its app's view only/);
      // The refusal went back to the model as the call's result.
      const answer = JSON.stringify(server.requests[1]!.body.messages.at(-1));
      assert.match(answer, /for its app's view only/);
      assert.ok(!(await log.lines()).includes("call reset"), "the server never ran it");
    } finally {
      await agent.close();
      await log.cleanup();
    }
  });

  it("shows each tool's audience in tools --json, and an app-only tool as not offered", async () => {
    const workspace = await createTempWorkspace("pc-app-audience-");
    try {
      await workspace.writeConfig(
        "project",
        [
          "mcp_servers:",
          "  counter:",
          "    type: stdio",
          `    command: ${JSON.stringify(process.execPath)}`,
          `    args: ${JSON.stringify([fixture("app-server")])}`,
          "",
        ].join("\n"),
      );
      const approval = await runCli(workspace, ["mcp", "approve"]);
      assert.equal(approval.code, 0, approval.stderr);
      const listing = await runCli(workspace, ["tools", "--json"]);
      assert.equal(listing.code, 0, listing.stderr);
      const { tools } = parseJson<{
        tools: Array<{ name: string; audience: string[]; offered: boolean }>;
      }>(listing);
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      assert.deepEqual(byName.get(RESET), {
        ...byName.get(RESET),
        audience: ["app"],
        offered: false,
      });
      assert.deepEqual(byName.get(ANNOUNCE)?.audience, ["model"]);
      assert.equal(byName.get(ANNOUNCE)?.offered, true);
      assert.deepEqual(byName.get("mcp__counter__increment")?.audience, ["model", "app"]);
      const table = await runCli(workspace, ["tools"]);
      const row = table.stdout.split("\n").find((line) => line.startsWith(RESET));
      assert.match(row ?? "", /no \(app only\)/);
    } finally {
      await workspace.cleanup();
    }
  });

  it("lists no app-only tool to the gateway's clients", async () => {
    const agent = await createAgent({
      config: false,
      workspace: os.tmpdir(),
      plugins: [
        mcp({ servers: { counter: stdioFixture("app-server") } }),
        gatewayPlugin({ audit: false }),
      ],
    });
    const tools = new GatewayTools(agent, agent.resolve(GatewaySettingsToken));
    try {
      const listed = tools.list().map((tool) => tool.name);
      assert.ok(listed.includes(ANNOUNCE), listed.join(", "));
      assert.ok(!listed.includes(RESET));
      assert.equal(tools.get(RESET), undefined, "nor can they call it by name");
    } finally {
      tools.close();
      await agent.close();
    }
  });
});
