// Anthropic's server-side tool search with the real @anthropic-ai/sdk against a local server
// of ours that speaks the Messages API: an agent with 320 MCP-like tools sends two of them and
// the search tool, the rest deferred; the API's search result and the call that follows come
// back in the next request exactly as they came; found tools stay callable after a compaction
// and in a continued session; `toolSearch: false` falls back to the agent's own search tool.
import assert from "node:assert/strict";
import { after, afterEach, before, describe, it } from "node:test";
import { MemorySessionStore, toolSuccess } from "@pseudoclaude/core";
import { createToolNameMap, type Message, wireToolName } from "@pseudoclaude/core/provider";
import { anthropic, TOOL_SEARCH_BETA, toAnthropicMessages } from "@pseudoclaude/provider-anthropic";
import {
  type AnthropicBlockSpec,
  anthropicContent,
  anthropicStream,
} from "./fixtures/providers/anthropic-wire.js";
import { FORECAST, WIDE_TOOL_COUNT, wideAgent } from "./fixtures/providers/wide-tools.js";
import { startWireServer, type WireServer } from "./fixtures/providers/wire-server.js";
import { ANTHROPIC_TEST_KEY } from "./support/provider-harness-anthropic.js";

/** The forecast tool's name on the wire (its dot is not allowed there). */
const FORECAST_WIRE = wireToolName(FORECAST);

/** What the API answers when the model searches, finds the forecast tool and calls it. */
function searchAndCall(callId = "toolu_01Forecast"): AnthropicBlockSpec[] {
  return [
    { type: "text", text: "Let me look for a weather tool." },
    {
      type: "server_tool_use",
      id: "srvtoolu_01Search",
      name: "tool_search_tool_bm25",
      input: { query: "weather forecast city" },
    },
    {
      type: "tool_search_tool_result",
      tool_use_id: "srvtoolu_01Search",
      content: {
        type: "tool_search_tool_search_result",
        tool_references: [{ type: "tool_reference", tool_name: FORECAST_WIRE }],
      },
    },
    { type: "tool_use", id: callId, name: FORECAST_WIRE, input: { id: "Lisbon" } },
  ];
}

interface WireTool {
  name: string;
  type?: string;
  defer_loading?: boolean;
  cache_control?: unknown;
}

describe("Anthropic server-side tool search against a local Messages API server", () => {
  let server: WireServer;
  before(async () => {
    server = await startWireServer();
  });
  afterEach(() => {
    assert.equal(server.pending(), 0, "every scripted reply was used");
    server.reset();
  });
  after(() => server.close());

  const provider = (options: Parameters<typeof anthropic>[0] = {}) =>
    anthropic({
      baseURL: server.baseURL,
      apiKey: ANTHROPIC_TEST_KEY,
      maxRetries: 0,
      env: {},
      ...options,
    });

  it("goes on after the API pauses its own search (pause_turn), sending the paused turn back", async () => {
    const [text, serverUse, searchResult, call] = searchAndCall();
    server.reply(
      anthropicStream({ blocks: [text!, serverUse!, searchResult!], stopReason: "pause_turn" }),
      anthropicStream({ blocks: [call!] }),
      anthropicStream({ text: "Sunny in Lisbon." }),
    );
    const { agent, ran } = await wideAgent(provider());
    try {
      const result = await agent.run("Weather in Lisbon?");
      assert.equal(result.text, "Sunny in Lisbon.");
      assert.equal(result.stopReason, "end_turn");
      assert.deepEqual(ran, [`${FORECAST}(Lisbon)`]);
      // The paused turn went back as it came: its search blocks lead the assistant turn.
      const paused = server.requests[1]!.body.messages.at(-1) as {
        role: string;
        content: Array<{ type: string }>;
      };
      assert.equal(paused.role, "assistant");
      assert.deepEqual(
        paused.content.map((block) => block.type),
        ["text", "server_tool_use", "tool_search_tool_result"],
      );
    } finally {
      await agent.close();
    }
  });

  it("sends the loaded tools and the search tool, every other tool deferred, with the beta header", async () => {
    const blocks = searchAndCall();
    server.reply(anthropicStream({ blocks }), anthropicStream({ text: "Sunny in Lisbon." }));
    const { agent, ran } = await wideAgent(provider());
    const searches: unknown[] = [];
    agent.on("tool-search", (event) => searches.push(event));
    try {
      assert.equal(agent.toolOffer().engine, "provider");
      const result = await agent.run("Weather in Lisbon?");
      assert.equal(result.text, "Sunny in Lisbon.");

      const [first, second] = server.requests;
      const tools = first!.body.tools as WireTool[];
      assert.deepEqual(
        tools.slice(0, 3).map((tool) => tool.name),
        ["read_file", "list_files", "tool_search_tool_bm25"],
      );
      assert.deepEqual(tools[2], {
        type: "tool_search_tool_bm25_20251119",
        name: "tool_search_tool_bm25",
      });
      assert.equal(tools.length, 3 + WIDE_TOOL_COUNT);
      assert.ok(tools.slice(3).every((tool) => tool.defer_loading === true));
      assert.ok(tools.slice(0, 3).every((tool) => tool.defer_loading === undefined));
      assert.ok(tools.some((tool) => tool.name === FORECAST_WIRE));
      // The cache breakpoint stays on the last tool that is always sent.
      assert.deepEqual(
        tools.flatMap((tool, at) => (tool.cache_control ? [at] : [])),
        [1],
      );
      for (const request of server.requests)
        assert.equal(request.headers["anthropic-beta"], TOOL_SEARCH_BETA);

      // The found tool ran through our registry, under its registry name.
      assert.deepEqual(ran, [`${FORECAST}(Lisbon)`]);
      assert.deepEqual(
        result.toolCalls.map((call) => [call.name, call.result.ok]),
        [[FORECAST, true]],
      );
      assert.deepEqual(searches, [
        { turn: 1, engine: "provider", query: "weather forecast city", found: [FORECAST] },
      ]);
      assert.deepEqual(
        agent.toolOffer().found.map((tool) => tool.name),
        [FORECAST],
      );

      // The next request carries the turn's blocks exactly as received, in order.
      const replayed = second!.body.messages[1];
      assert.equal(replayed.role, "assistant");
      assert.equal(JSON.stringify(replayed.content), JSON.stringify(anthropicContent(blocks)));
      assert.deepEqual(second!.body.messages[2].content[0].tool_use_id, "toolu_01Forecast");
      // The start of the request did not move: the prompt cache keeps hitting.
      assert.equal(JSON.stringify(second!.body.tools), JSON.stringify(first!.body.tools));
      assert.equal(JSON.stringify(second!.body.system), JSON.stringify(first!.body.system));
    } finally {
      await agent.close();
    }
  });

  it("sends a found tool loaded once its search result is compacted away", async () => {
    server.reply(
      anthropicStream({ blocks: searchAndCall() }),
      anthropicStream({ text: "Sunny in Lisbon." }),
      anthropicStream({ text: "Still sunny." }),
    );
    const { agent } = await wideAgent(provider());
    try {
      await agent.run("Weather in Lisbon?");
      // A compaction: the history is replaced by a summary, the found tools are kept.
      agent.conversation.replace([
        { role: "user", content: "Summary: the forecast tool said it is sunny in Lisbon." },
        { role: "assistant", text: "Noted.", toolCalls: [] },
      ]);
      assert.deepEqual(
        agent.toolOffer().found.map((tool) => tool.name),
        [FORECAST],
      );
      await agent.run("And tomorrow?");
      const tools = server.requests[2]!.body.tools as WireTool[];
      assert.deepEqual(
        tools.slice(0, 4).map((tool) => [tool.name, tool.defer_loading]),
        [
          ["read_file", undefined],
          ["list_files", undefined],
          ["tool_search_tool_bm25", undefined],
          [FORECAST_WIRE, undefined],
        ],
      );
      assert.equal(tools.filter((tool) => tool.name === FORECAST_WIRE).length, 1);
      assert.equal(tools.length, 3 + WIDE_TOOL_COUNT);
      assert.ok(tools.slice(4).every((tool) => tool.defer_loading === true));
      // What comes before the found tool is what the first request sent.
      const before = server.requests[0]!.body.tools as WireTool[];
      assert.equal(JSON.stringify(tools.slice(0, 3)), JSON.stringify(before.slice(0, 3)));
    } finally {
      await agent.close();
    }
  });

  it("keeps the found tool and the search blocks when the session is continued", async () => {
    const store = new MemorySessionStore();
    const blocks = searchAndCall("toolu_01Resumed");
    server.reply(
      anthropicStream({ blocks }),
      anthropicStream({ text: "Sunny in Lisbon." }),
      anthropicStream({ text: "Still sunny." }),
    );
    const first = await wideAgent(provider(), { session: { id: "lisbon", store } });
    try {
      await first.agent.run("Weather in Lisbon?");
    } finally {
      await first.agent.close();
    }
    const resumed = await wideAgent(provider(), { session: { id: "lisbon", store } });
    try {
      assert.deepEqual(
        resumed.agent.toolOffer().found.map((tool) => tool.name),
        [FORECAST],
      );
      await resumed.agent.run("And tomorrow?");
      const request = server.requests[2]!.body;
      assert.equal(
        JSON.stringify(request.messages[1].content),
        JSON.stringify(anthropicContent(blocks)),
      );
      // Its search result is still in the conversation: the API loads it from there.
      const forecast = (request.tools as WireTool[]).find((tool) => tool.name === FORECAST_WIRE);
      assert.equal(forecast?.defer_loading, true);
      assert.equal(JSON.stringify(request.tools), JSON.stringify(server.requests[0]!.body.tools));
    } finally {
      await resumed.agent.close();
    }
  });

  it("reports nothing found for a failed search, and still sends its blocks back", async () => {
    const blocks: AnthropicBlockSpec[] = [
      {
        type: "server_tool_use",
        id: "srvtoolu_01Failed",
        name: "tool_search_tool_regex",
        input: { query: "weather.*(" },
      },
      {
        type: "tool_search_tool_result",
        tool_use_id: "srvtoolu_01Failed",
        content: {
          type: "tool_search_tool_result_error",
          error_code: "invalid_tool_input",
          error_message: "Invalid regex pattern.",
        },
      },
      { type: "text", text: "I could not find a forecast tool." },
    ];
    server.reply(anthropicStream({ blocks }), anthropicStream({ text: "Ok." }));
    const { agent } = await wideAgent(
      provider({ toolSearch: "regex", headers: { "anthropic-beta": "files-api-2025-04-14" } }),
    );
    const searches: unknown[] = [];
    agent.on("tool-search", (event) => searches.push(event));
    try {
      const result = await agent.run("Weather in Lisbon?");
      assert.equal(result.text, "I could not find a forecast tool.");
      await agent.run("Never mind.");
      assert.deepEqual(searches, []);
      assert.deepEqual(agent.toolOffer().found, []);
      const [first, second] = server.requests;
      assert.deepEqual((first!.body.tools as WireTool[])[2], {
        type: "tool_search_tool_regex_20251119",
        name: "tool_search_tool_regex",
      });
      // The caller's own betas are kept beside the one tool search needs.
      assert.equal(first!.headers["anthropic-beta"], `files-api-2025-04-14,${TOOL_SEARCH_BETA}`);
      assert.equal(
        JSON.stringify(second!.body.messages[1].content),
        JSON.stringify(anthropicContent(blocks)),
      );
    } finally {
      await agent.close();
    }
  });

  it("falls back to the agent's own tool_search with toolSearch: false", async () => {
    server.reply(
      anthropicStream({
        toolCalls: [{ id: "toolu_S", name: "tool_search", input: { query: "weather forecast" } }],
      }),
      anthropicStream({
        toolCalls: [{ id: "toolu_F", name: FORECAST_WIRE, input: { id: "Porto" } }],
      }),
      anthropicStream({ text: "Sunny in Porto." }),
    );
    const native = provider({ toolSearch: false });
    assert.equal(native.nativeToolSearch, false);
    const { agent, ran } = await wideAgent(native);
    try {
      assert.equal(agent.toolOffer().engine, "local");
      const result = await agent.run("Weather in Porto?");
      assert.equal(result.text, "Sunny in Porto.");
      assert.deepEqual(ran, [`${FORECAST}(Porto)`]);
      const [first, second] = server.requests;
      assert.deepEqual(
        (first!.body.tools as WireTool[]).map((tool) => tool.name),
        ["read_file", "list_files", "tool_search"],
      );
      const loaded = (second!.body.tools as WireTool[]).map((tool) => tool.name);
      assert.deepEqual(loaded.slice(0, 3), ["read_file", "list_files", "tool_search"]);
      assert.ok(loaded.includes(FORECAST_WIRE));
      for (const request of server.requests) {
        assert.equal(request.headers["anthropic-beta"], undefined);
        assert.ok((request.body.tools as WireTool[]).every((tool) => !tool.defer_loading));
      }
    } finally {
      await agent.close();
    }
  });
});

describe("Anthropic turns with server tool blocks, projected for a request", () => {
  const names = createToolNameMap([FORECAST]);
  const blocks = anthropicContent(searchAndCall("toolu_X"));
  const turn = (ids: string[]): Message[] => [
    { role: "user", content: "Weather?" },
    {
      role: "assistant",
      text: "Let me look for a weather tool.",
      toolCalls: ids.map((id) => ({ id, name: FORECAST, arguments: { id: "Lisbon" } })),
      providerData: { anthropic: { content: blocks } },
    },
    { role: "tool", callId: ids[0] ?? "none", toolName: FORECAST, result: toolSuccess("Sunny") },
  ];

  it("sends the stored blocks when the calls still match them", () => {
    const wire = toAnthropicMessages(turn(["toolu_X"]), names, { serverToolSearch: true });
    assert.deepEqual(wire[1]!.content, blocks);
  });

  it("rebuilds the turn when its calls no longer match, or the request has no search tool", () => {
    const rebuilt = [
      { type: "text", text: "Let me look for a weather tool." },
      { type: "tool_use", id: "toolu_Y", name: FORECAST_WIRE, input: { id: "Lisbon" } },
    ];
    assert.deepEqual(
      toAnthropicMessages(turn(["toolu_Y"]), names, { serverToolSearch: true })[1]!.content,
      rebuilt,
    );
    assert.deepEqual(
      toAnthropicMessages(turn(["toolu_X"]), names)[1]!.content,
      rebuilt.map((block) => (block.type === "tool_use" ? { ...block, id: "toolu_X" } : block)),
    );
  });
});
