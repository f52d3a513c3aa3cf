// The provider contract suite's cases about tools: the forced tool choice, parallel calls
// under names the API refuses, and arguments the model broke.
import assert from "node:assert/strict";
import { it } from "node:test";
import { collectEvents, contractTools, withContractAgent } from "./provider-contract-agent.js";
import { type ContractCases, HI } from "./provider-contract-cases.js";

/** Cases on tools: offering them, forcing a call, and calls coming back. */
export function toolCallCases<Wire>(context: ContractCases<Wire>): void {
  it("forces a tool call when asked for required, and only then", {
    timeout: context.timeout,
  }, async () => {
    const server = context.server();
    const { forecast, search } = contractTools();
    const tools = [forecast.definition, search.definition];
    server.reply({ type: "text", deltas: ["a"] }, { type: "text", deltas: ["b"] });
    const provider = server.provider();
    await collectEvents(provider, { ...HI, tools, toolChoice: "required" });
    await collectEvents(provider, { ...HI, tools });
    const [forced, plain] = server.requests();
    assert.equal(forced?.toolChoice, "required");
    assert.equal(forced?.tools?.length, 2);
    assert.equal(plain?.toolChoice, undefined);
    await context.wireCheck("forces-tool-call");
  });

  it("runs parallel tool calls, mapping a tool name the API refuses both ways", {
    timeout: context.timeout,
  }, async () => {
    const server = context.server();
    const tools = contractTools();
    await withContractAgent(
      server.provider(),
      async (agent) => {
        server.reply(
          (request) => ({
            type: "tool-calls",
            text: "Let me check both.",
            calls: [
              { id: "call_A", name: "get_forecast", arguments: { city: "Lisbon" } },
              // The search tool under whatever name the provider gave it on the wire.
              {
                id: "call_B",
                name: otherThanForecast(request.tools),
                arguments: { query: "cache" },
              },
            ],
          }),
          { type: "text", deltas: ["Sunny, ", "and 3 hits."] },
        );
        const result = await agent.run("Weather in Lisbon and search the docs for cache");
        assert.equal(result.text, "Sunny, and 3 hits.");
        assert.equal(result.stopReason, "end_turn");
        assert.deepEqual(
          result.toolCalls.map((call) => [call.id, call.name, call.result.ok]),
          [
            ["call_A", "get_forecast", true],
            ["call_B", "mcp__docs.v2__search", true],
          ],
        );
        assert.deepEqual(tools.search.calls[0]?.args, { query: "cache" });
        const [first, second, ...more] = server.requests();
        assert.equal(more.length, 0);
        assert.equal(first?.tools?.length, 2);
        assert.ok(first?.tools?.includes("get_forecast"), "a name the API takes is sent as it is");
        const searchWire = otherThanForecast(first?.tools);
        // The second request replays the calls under their wire names, then their results.
        assert.deepEqual(second?.messages, [
          { role: "user", text: "Weather in Lisbon and search the docs for cache" },
          {
            role: "assistant",
            text: "Let me check both.",
            toolCalls: [
              { id: "call_A", name: "get_forecast", arguments: { city: "Lisbon" } },
              { id: "call_B", name: searchWire, arguments: { query: "cache" } },
            ],
          },
          { role: "tool", callId: "call_A", text: "Sunny in Lisbon, 21°C." },
          { role: "tool", callId: "call_B", text: "3 hits for cache" },
        ]);
        await context.wireCheck("parallel-tool-calls");
      },
      tools,
    );
  });

  it("streams each call's arguments in pieces under its id and registry name, joining to the call", {
    timeout: context.timeout,
  }, async () => {
    const server = context.server();
    const { forecast, search } = contractTools();
    const tools = [forecast.definition, search.definition];
    server.reply((request) => ({
      type: "tool-calls",
      calls: [
        { id: "call_A", name: "get_forecast", arguments: { city: "Lisbon", days: [1, 2] } },
        { id: "call_B", name: otherThanForecast(request.tools), arguments: { query: "cache" } },
      ],
    }));
    const events = await collectEvents(server.provider(), { ...HI, tools });
    const calls = events.flatMap((event) => (event.type === "tool-call" ? [event.call] : []));
    assert.equal(calls.length, 2);
    for (const call of calls) {
      const pieces = events.flatMap((event) =>
        event.type === "tool-input-delta" && event.id === call.id ? [event] : [],
      );
      if (context.harness.streamsToolInput === false) {
        assert.equal(pieces.length, 0, "a provider that says it does not stream input sends none");
        continue;
      }
      assert.ok(pieces.length > 0, `${call.id}'s arguments streamed`);
      for (const piece of pieces) assert.equal(piece.name, call.name, "the registry name");
      assert.deepEqual(JSON.parse(pieces.map((piece) => piece.delta).join("")), call.arguments);
      // Every piece comes before the call it builds.
      const last = events.lastIndexOf(pieces.at(-1) as (typeof events)[number]);
      assert.ok(
        last < events.findIndex((event) => event.type === "tool-call" && event.call === call),
      );
    }
    assert.deepEqual(
      calls.map((call) => call.name),
      ["get_forecast", "mcp__docs.v2__search"],
    );
    await context.wireCheck("streams-tool-input");
  });

  it("passes broken tool JSON on as a raw string, so the registry answers invalid_arguments", {
    timeout: context.timeout,
  }, async () => {
    const server = context.server();
    await withContractAgent(server.provider(), async (agent) => {
      server.reply(
        {
          type: "tool-calls",
          calls: [{ id: "call_bad", name: "get_forecast", json: '{"city": "Lis' }],
        },
        { type: "text", deltas: ["Sorry."] },
      );
      const result = await agent.run("Weather?");
      assert.equal(result.toolCalls[0]?.arguments, '{"city": "Lis');
      assert.equal(result.toolCalls[0]?.result.error?.code, "invalid_arguments");
      const replayed = server.requests()[1]?.messages;
      const call = replayed?.find((message) => message.role === "assistant")?.toolCalls[0];
      assert.equal(call?.id, "call_bad", "the model sees the call it made");
      assert.equal(call?.name, "get_forecast");
      assert.ok(
        replayed?.some((message) => message.role === "tool" && message.callId === "call_bad"),
        "and the answer to it",
      );
      await context.wireCheck("broken-tool-json");
    });
  });
}

/** The wire name of the suite's search tool: the one that is not the forecast's. */
function otherThanForecast(tools: readonly string[] | undefined): string {
  return tools?.find((name) => name !== "get_forecast") ?? "";
}
