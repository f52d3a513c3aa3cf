import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { supportsHostedToolSearch } from "../src/hosted-search-support.js";
import type { OpenAIOptions } from "../src/openai-options.js";
import { openai } from "../src/openai-provider.js";

/** Whether a provider so configured sends deferred tools to OpenAI's hosted search. */
const hosted = (options: OpenAIOptions) =>
  openai({ apiKey: "k", env: {}, ...options }).nativeToolSearch;

const LOCAL = "http://127.0.0.1:11434/v1";

describe("which tool search the OpenAI provider uses", () => {
  it("takes the models of gpt-5.4 and later, with any suffix, as the hosted search's", () => {
    for (const model of ["gpt-5.4", "gpt-5.4-mini", "gpt-5.4-pro", "gpt-5.5", "gpt-5.10", "gpt-6"])
      assert.equal(supportsHostedToolSearch(model), true, model);
    for (const model of ["gpt-5", "gpt-5.2", "gpt-5-mini", "gpt-4o", "gpt-4.1", "o3", "llama3.2"])
      assert.equal(supportsHostedToolSearch(model), false, model);
    assert.equal(supportsHostedToolSearch("openai/gpt-5.5"), false);
  });

  it("auto: the hosted search on the Responses API at OpenAI with such a model", () => {
    for (const model of ["gpt-5.4", "gpt-5.4-mini", "gpt-5.4-2026-03-05", "gpt-5.5", "gpt-6"])
      assert.equal(hosted({ api: "responses", model }), true, model);
    assert.equal(hosted({ api: "responses" }), true, "the default model");
    const openaiURL = "https://api.openai.com/v1";
    assert.equal(hosted({ api: "responses", model: "gpt-5.4", baseURL: openaiURL }), true);
  });

  it("auto: ours for older or unknown models, other endpoints and Chat Completions", () => {
    for (const model of ["gpt-4o", "gpt-4.1", "gpt-5", "gpt-5.2", "o3", "llama3.2"])
      assert.equal(hosted({ api: "responses", model }), false, model);
    assert.equal(hosted({ api: "responses", model: "gpt-5.5", baseURL: LOCAL }), false);
    const env = { OPENAI_BASE_URL: "https://openrouter.ai/api/v1" };
    assert.equal(hosted({ api: "responses", model: "gpt-5.5", env }), false, "from the env");
    assert.equal(hosted({ model: "gpt-5.5" }), false, "Chat Completions");
  });

  it("hosted forces it on the Responses API, false never uses it", () => {
    const anywhere = { api: "responses", model: "gpt-4o", baseURL: LOCAL } as const;
    assert.equal(hosted({ ...anywhere, toolSearch: "hosted" }), true);
    assert.equal(hosted({ model: "gpt-5.5", toolSearch: "hosted" }), false, "no search in Chat");
    assert.equal(hosted({ api: "responses", model: "gpt-5.5", toolSearch: false }), false);
    assert.throws(
      () => openai({ apiKey: "k", env: {}, toolSearch: "client" as unknown as "hosted" }),
      /toolSearch must be "auto", "hosted" or false/,
    );
  });
});
