import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ConfigError } from "@pseudoclaude/core";
import { openai } from "../src/openai-provider.js";
import { resolveOpenAISettings } from "../src/resolve-settings.js";

describe("OpenAI settings", () => {
  it("reads the key and endpoint from the environment the way the SDK names them", () => {
    const settings = resolveOpenAISettings({
      env: { OPENAI_API_KEY: "k", OPENAI_BASE_URL: "http://127.0.0.1:1/v1" },
    });
    assert.deepEqual(
      [settings.apiKey, settings.baseURL, settings.model, settings.api, settings.strict],
      ["k", "http://127.0.0.1:1/v1", "gpt-5.5", "chat", false],
    );
  });

  it("lets code options win over the environment", () => {
    const settings = resolveOpenAISettings({
      apiKey: "code",
      baseURL: "http://127.0.0.1:11434/v1",
      env: { OPENAI_API_KEY: "env", OPENAI_BASE_URL: "http://127.0.0.1:1/v1" },
    });
    assert.deepEqual([settings.apiKey, settings.baseURL], ["code", "http://127.0.0.1:11434/v1"]);
  });

  it("fails without a key with a ConfigError that names the variable to set", () => {
    assert.throws(
      () => openai({ env: {} }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.code === "missing_api_key" &&
        error.message.includes("OPENAI_API_KEY"),
    );
  });

  it("reads tool results as text in Chat Completions and text and images in Responses", () => {
    assert.deepEqual(openai({ apiKey: "k", env: {} }).toolResultContent, ["text"]);
    assert.deepEqual(openai({ apiKey: "k", api: "responses", env: {} }).toolResultContent, [
      "text",
      "image",
    ]);
  });

  it("rejects an unknown API", () => {
    assert.throws(() => openai({ apiKey: "k", api: "completions" as never, env: {} }), ConfigError);
  });
});
