// An agent file's `model` as Claude Code's format means it, and the model it runs on.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { classifyAgentModel, resolveAgentModel } from "../src/index.js";

describe("agent models", () => {
  it("classifies inherit, aliases, model ids and everything else", () => {
    assert.deepEqual(classifyAgentModel(undefined), { kind: "inherit" });
    assert.deepEqual(classifyAgentModel("inherit"), { kind: "inherit" });
    assert.deepEqual(classifyAgentModel(" Inherit "), { kind: "inherit" });
    assert.deepEqual(classifyAgentModel("sonnet"), {
      kind: "alias",
      alias: "sonnet",
      family: "sonnet",
    });
    assert.deepEqual(classifyAgentModel("Opus"), { kind: "alias", alias: "opus", family: "opus" });
    assert.deepEqual(classifyAgentModel("opusplan"), {
      kind: "alias",
      alias: "opusplan",
      family: "opus",
    });
    assert.deepEqual(classifyAgentModel("haiku"), {
      kind: "alias",
      alias: "haiku",
      family: "haiku",
    });
    for (const id of [
      "claude-opus-5-5",
      "gpt-5.1",
      "o3",
      "llama3.1:8b",
      "qwen/qwen3-coder",
      "small-model-1",
    ])
      assert.deepEqual(classifyAgentModel(id), { kind: "id", id });
    assert.deepEqual(classifyAgentModel("fable"), { kind: "unknown", value: "fable" });
    assert.deepEqual(classifyAgentModel("son net"), { kind: "unknown", value: "son net" });
    assert.deepEqual(classifyAgentModel(4), { kind: "unknown", value: "4" });
  });

  it("runs an alias on the family's Claude model with a Claude parent, else the parent's", () => {
    const sonnet = classifyAgentModel("sonnet");
    const opus = classifyAgentModel("opus");
    const claude = { model: "claude-sonnet-5-5" };
    assert.equal(resolveAgentModel(opus, claude), "claude-opus-5-5");
    assert.equal(resolveAgentModel(classifyAgentModel("haiku"), claude), "claude-haiku-5-5");
    assert.equal(resolveAgentModel(sonnet, claude), undefined, "already a Sonnet: its own");
    assert.equal(resolveAgentModel(opus, { model: "gpt-5.1" }), undefined);
    assert.equal(resolveAgentModel(opus, undefined), undefined);
  });

  it("runs a model id as written, and inherit or an unknown value on the parent's model", () => {
    const parent = { model: "gpt-5.1" };
    assert.equal(resolveAgentModel(classifyAgentModel("gpt-5-mini"), parent), "gpt-5-mini");
    assert.equal(resolveAgentModel(classifyAgentModel("inherit"), parent), undefined);
    assert.equal(resolveAgentModel(classifyAgentModel("fable"), parent), undefined);
  });
});
