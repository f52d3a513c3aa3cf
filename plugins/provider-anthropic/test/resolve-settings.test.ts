import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ConfigError } from "@pseudoclaude/core";
import { anthropic } from "../src/anthropic-provider.js";
import { resolveAnthropicSettings } from "../src/resolve-settings.js";

describe("Anthropic settings", () => {
  it("reads the key and endpoint from the environment the way the SDK names them", () => {
    const settings = resolveAnthropicSettings({
      env: { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: "http://127.0.0.1:1" },
    });
    assert.equal(settings.apiKey, "k");
    assert.equal(settings.baseURL, "http://127.0.0.1:1");
    assert.equal(settings.model, "claude-sonnet-5-5");
    assert.equal(settings.maxTokens, 8192);
    assert.equal(settings.promptCaching, true);
  });

  it("lets code options win over the environment", () => {
    const settings = resolveAnthropicSettings({
      apiKey: "code",
      baseURL: "http://127.0.0.1:2",
      model: "claude-haiku-5-5",
      env: { ANTHROPIC_API_KEY: "env", ANTHROPIC_BASE_URL: "http://127.0.0.1:1" },
    });
    assert.deepEqual(
      [settings.apiKey, settings.baseURL, settings.model],
      ["code", "http://127.0.0.1:2", "claude-haiku-5-5"],
    );
  });

  it("fails without a key with a ConfigError that names the variable to set", () => {
    assert.throws(
      () => anthropic({ env: {} }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.code === "missing_api_key" &&
        error.message.includes("ANTHROPIC_API_KEY") &&
        error.details.variable === "ANTHROPIC_API_KEY",
    );
    assert.throws(
      () => anthropic({ apiKeyEnv: "TEAM_KEY", env: { ANTHROPIC_API_KEY: "k" } }),
      /set the TEAM_KEY environment variable/,
    );
  });

  it("rejects a max token count that is not a positive integer", () => {
    assert.throws(() => anthropic({ apiKey: "k", maxTokens: 0, env: {} }), ConfigError);
  });

  it("declares the content kinds its model reads in tool results", () => {
    const provider = anthropic({ apiKey: "k", env: {} });
    assert.deepEqual(provider.toolResultContent, ["text", "image"]);
    assert.equal(provider.name, "anthropic");
  });
});
