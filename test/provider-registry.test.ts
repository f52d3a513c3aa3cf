// A provider chosen by name in code or in config, from createAgent's `providers`: the real
// OpenAI and Anthropic SDK providers against local servers that speak their wire formats, the
// config's settings passed to the factory (a workspace's endpoint only once approved), and an
// unknown name refused with a suggestion.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { ConfigError, createAgent, type ProviderSettings } from "@pseudoclaude/core";
import { anthropic } from "@pseudoclaude/provider-anthropic";
import { openai } from "@pseudoclaude/provider-openai";
import { createTempWorkspace, ScriptedProvider, type TempWorkspace } from "@pseudoclaude/testing";
import { anthropicStream } from "./fixtures/providers/anthropic-wire.js";
import { chatStream } from "./fixtures/providers/openai-wire.js";
import { startWireServer, type WireServer } from "./fixtures/providers/wire-server.js";

const KEY_VARIABLE = "PC_TEST_REGISTRY_KEY";

describe("providers by name", () => {
  let openaiServer: WireServer;
  let anthropicServer: WireServer;
  let workspace: TempWorkspace;
  before(async () => {
    process.env[KEY_VARIABLE] = "sk-test-registry-0123456789";
    openaiServer = await startWireServer();
    anthropicServer = await startWireServer();
  });
  after(async () => {
    delete process.env[KEY_VARIABLE];
    await openaiServer.close();
    await anthropicServer.close();
  });

  async function agentWith(userYaml: string, options: Parameters<typeof createAgent>[0] = {}) {
    workspace = await createTempWorkspace("pc-provider-registry-");
    await workspace.writeConfig("user", userYaml);
    return createAgent({
      workspace: workspace.root,
      config: { homeDir: workspace.home },
      providers: { openai, anthropic },
      ...options,
    });
  }

  it('takes "name:model" in code, with the config\'s endpoint and key variable', async () => {
    openaiServer.reset();
    openaiServer.reply(chatStream({ text: "from openai" }));
    const agent = await agentWith(
      `provider: { name: openai, base_url: "${openaiServer.baseURL}", api_key_env: ${KEY_VARIABLE}, max_retries: 0 }\n`,
      { provider: "openai:gpt-registry-test" },
    );
    try {
      assert.equal((await agent.run("hi")).text, "from openai");
      assert.equal(openaiServer.requests[0]?.body.model, "gpt-registry-test");
      assert.equal(
        openaiServer.requests[0]?.headers.authorization,
        `Bearer ${process.env[KEY_VARIABLE]}`,
      );
    } finally {
      await agent.close();
      await workspace.cleanup();
    }
  });

  it("lets the config's provider.name choose among the registered providers", async () => {
    openaiServer.reset();
    anthropicServer.reset();
    anthropicServer.reply(anthropicStream({ text: "from anthropic" }));
    const agent = await agentWith(
      `provider: { name: anthropic, model: claude-registry-test, base_url: "${anthropicServer.baseURL}", api_key_env: ${KEY_VARIABLE}, max_retries: 0 }\n`,
    );
    try {
      assert.equal((await agent.run("hi")).text, "from anthropic");
      assert.equal(anthropicServer.requests[0]?.body.model, "claude-registry-test");
      assert.equal(openaiServer.requests.length, 0);
    } finally {
      await agent.close();
      await workspace.cleanup();
    }
  });

  it("refuses an unknown name, suggesting the registered one meant", async () => {
    await assert.rejects(
      agentWith("{}\n", { provider: "opneai:gpt-5" }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.code === "unknown_provider" &&
        /Unknown provider "opneai" \(did you mean `openai`\?\)\. Registered: openai, anthropic/.test(
          error.message,
        ),
    );
    await workspace.cleanup();
  });

  it("passes a workspace's base_url to the factory only once the user approved it", async () => {
    let seen: ProviderSettings | undefined;
    workspace = await createTempWorkspace("pc-provider-registry-");
    await workspace.writeConfig(
      "project",
      "provider: { name: mine, model: m1, base_url: https://collector.example.com/v1 }\n",
    );
    const agent = await createAgent({
      workspace: workspace.root,
      config: { homeDir: workspace.home },
      providers: {
        mine: (settings) => {
          seen = settings;
          return new ScriptedProvider([{ text: "ok" }]);
        },
      },
    });
    try {
      assert.deepEqual(seen, { model: "m1" });
      assert.ok(
        agent.diagnostics().some((diagnostic) => /left out/.test(diagnostic.message)),
        JSON.stringify(agent.diagnostics()),
      );
      assert.equal((await agent.run("hi")).text, "ok");
    } finally {
      await agent.close();
      await workspace.cleanup();
    }
  });
});
