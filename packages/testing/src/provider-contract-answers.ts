// The provider contract suite's cases about answers and settings: the streamed events, the
// request that asked for them, the context window and another model of the same API.
import assert from "node:assert/strict";
import { it } from "node:test";
import { ConfigError, ModelError, type Provider } from "@pseudoclaude/core";
import type { ProviderEvent, ProviderUsage } from "@pseudoclaude/core/provider";
import { collectEvents } from "./provider-contract-agent.js";
import { type ContractCases, HI } from "./provider-contract-cases.js";

/** Cases on what a provider streams and sends, and on its settings. */
export function answerCases<Wire>(context: ContractCases<Wire>): void {
  it("streams text deltas, then usage and the stop reason", {
    timeout: context.timeout,
  }, async () => {
    const server = context.server();
    const usage = { inputTokens: 8, outputTokens: 9, cacheReadTokens: 32 };
    server.reply({ type: "text", deltas: ["Hel", "lo, ", "world."], usage });
    const provider = server.provider();
    const events = await collectEvents(provider, {
      system: "Be brief.",
      messages: [{ role: "user", content: "Say hello" }],
    });
    assert.deepEqual(events, [
      { type: "text-delta", text: "Hel" },
      { type: "text-delta", text: "lo, " },
      { type: "text-delta", text: "world." },
      // Cached tokens are counted apart from the input, as the kernel counts them.
      { type: "usage", usage: reportedUsage(context.harness.usageCounts, usage) },
      { type: "stop", reason: "end_turn" },
    ] satisfies ProviderEvent[]);
    const [request, ...more] = server.requests();
    assert.equal(more.length, 0);
    assert.equal(request?.model, provider.model);
    assert.equal(request?.credential, context.harness.apiKey, "the key is sent");
    assert.equal(request?.system, "Be brief.");
    assert.deepEqual(request?.messages, [{ role: "user", text: "Say hello" }]);
    assert.equal(request?.tools, undefined, "no tools, no tools field");
    assert.equal(request?.toolChoice, undefined);
    await context.wireCheck("streams-text");
  });

  it("declares its model's context window, or the configured one, and refuses a bad one", {
    timeout: context.timeout,
  }, async () => {
    const server = context.server();
    const { name, contextWindow } = server.provider();
    assert.ok(
      contextWindow === undefined || (Number.isInteger(contextWindow) && contextWindow > 0),
      `its own window is unknown or a positive integer (got ${contextWindow})`,
    );
    assert.equal(server.provider({ contextWindow: 50_000 }).contextWindow, 50_000);
    const error = catchSync(() => server.provider({ contextWindow: 0 }));
    assert.ok(!ModelError.is(error), "a setting, not the model, is wrong");
    assert.ok(ConfigError.is(error), String(error));
    assert.match(
      String(error),
      new RegExp(`${name} contextWindow must be a positive integer \\(got 0\\)`),
    );
    await context.wireCheck("context-window", { error });
  });

  it("withModel: the same endpoint, key and settings for another model", {
    timeout: context.timeout,
  }, async (t) => {
    const server = context.server();
    const base = server.provider({
      model: "contract-main-model",
      maxTokens: 1234,
      contextWindow: 50_000,
    });
    if (!base.withModel) {
      t.skip("the provider has one model");
      return;
    }
    server.reply({ type: "text", deltas: ["ok"] });
    const other = base.withModel("contract-other-model");
    assert.equal(other.model, "contract-other-model");
    assert.equal(base.model, "contract-main-model", "the original is left as it was");
    assert.notEqual(other.contextWindow, 50_000, "the window given for one model is not another's");
    await collectEvents(other, HI);
    const [request] = server.requests();
    assert.equal(request?.model, "contract-other-model");
    assert.equal(request?.maxTokens, 1234);
    assert.equal(request?.credential, context.harness.apiKey);
    await context.wireCheck("with-model");
  });
}

/** The usage event's counts for scripted `usage`: exactly the provider's keys, 0 when unscripted. */
function reportedUsage(
  counts: readonly (keyof ProviderUsage)[],
  usage: ProviderUsage,
): ProviderUsage {
  return Object.fromEntries(counts.map((count) => [count, usage[count] ?? 0]));
}

function catchSync(make: () => Provider): unknown {
  try {
    make();
  } catch (error) {
    return error;
  }
  return assert.fail("creating the provider should fail");
}
