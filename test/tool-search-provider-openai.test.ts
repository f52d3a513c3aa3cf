// OpenAI and tool search with the real `openai` SDK against a local server of ours that
// refuses more than 128 function tools as OpenAI does: Chat Completions stays under the limit
// with the agent's own tool_search (the run that fails without it), and the Responses API's
// hosted tool_search finds deferred functions, its items going back with the next request.
import assert from "node:assert/strict";
import { after, afterEach, before, describe, it } from "node:test";
import { ConfigError, ModelError } from "@pseudoclaude/core";
import { wireToolName } from "@pseudoclaude/core/provider";
import { openai } from "@pseudoclaude/provider-openai";
import { chatStream, openaiToolLimit, responsesStream } from "./fixtures/providers/openai-wire.js";
import { FORECAST, WIDE_TOOL_COUNT, wideAgent } from "./fixtures/providers/wide-tools.js";
import { startWireServer, type WireServer } from "./fixtures/providers/wire-server.js";
import { OPENAI_TEST_KEY } from "./support/provider-harness-openai.js";

/** The forecast tool's name on the wire (its dot is not allowed there). */
const FORECAST_WIRE = wireToolName(FORECAST);

interface ChatTool {
  type: "function";
  function: { name: string };
}

interface ResponsesTool {
  type: string;
  name?: string;
  defer_loading?: boolean;
}

describe("OpenAI tool search against a local server that takes at most 128 tools", () => {
  let server: WireServer;
  before(async () => {
    server = await startWireServer("/v1");
  });
  afterEach(() => {
    assert.equal(server.pending(), 0, "every scripted reply was used");
    server.reset();
  });
  after(() => server.close());

  const provider = (options: Parameters<typeof openai>[0] = {}) =>
    openai({
      baseURL: server.baseURL,
      apiKey: OPENAI_TEST_KEY,
      maxRetries: 0,
      env: {},
      ...options,
    });

  describe("Chat Completions", () => {
    it("is refused with 322 tools when nothing is deferred (toolSearch: never)", async () => {
      server.reply(openaiToolLimit(chatStream({ text: "never sent" })));
      const { agent } = await wideAgent(provider(), { toolSearch: "never" });
      try {
        await assert.rejects(agent.run("Weather in Lisbon?"), (error: unknown) => {
          assert.ok(ModelError.is(error));
          assert.match(
            (error as Error).message,
            /array too long\. Expected an array with maximum length 128, but got an array with length 322/,
          );
          return true;
        });
        assert.equal(server.requests[0]!.body.tools.length, 2 + WIDE_TOOL_COUNT);
      } finally {
        await agent.close();
      }
    });

    it("completes the same run with the agent's own tool_search, every request under the limit", async () => {
      server.reply(
        openaiToolLimit(
          chatStream({
            toolCalls: [{ name: "tool_search", input: { query: "weather forecast city" } }],
          }),
        ),
        openaiToolLimit(
          chatStream({ toolCalls: [{ name: FORECAST_WIRE, input: { id: "Lisbon" } }] }),
        ),
        openaiToolLimit(chatStream({ text: "Sunny in Lisbon." })),
      );
      const chat = provider();
      assert.equal(chat.maxTools, 128);
      assert.equal(chat.nativeToolSearch, false);
      const { agent, ran } = await wideAgent(chat);
      const searches: Array<{ engine: string; found: string[] }> = [];
      agent.on("tool-search", (event) => searches.push(event));
      try {
        assert.equal(agent.toolOffer().engine, "local");
        const result = await agent.run("Weather in Lisbon?");
        assert.equal(result.text, "Sunny in Lisbon.");
        assert.deepEqual(ran, [`${FORECAST}(Lisbon)`]);
        const names = server.requests.map((request) =>
          (request.body.tools as ChatTool[]).map((tool) => tool.function.name),
        );
        assert.deepEqual(names[0], ["read_file", "list_files", "tool_search"]);
        for (const sent of names) assert.ok(sent.length <= 128, `${sent.length} tools`);
        assert.equal(searches[0]?.engine, "local");
        assert.equal(searches[0]?.found[0], FORECAST);
        // Found tools join after what was sent before: the start of the list never moves.
        assert.deepEqual(names[1]!.slice(0, 3), names[0]);
        assert.equal(names[1]![3], FORECAST_WIRE);
        assert.deepEqual(names[2], names[1]);
      } finally {
        await agent.close();
      }
    });

    it("takes another limit, or none, for compatible servers", async () => {
      const { agent } = await wideAgent(provider({ maxTools: false }));
      try {
        // No limit, and 322 definitions (~34k tokens) fit in a tenth of a 400k window.
        assert.equal(agent.toolOffer().engine, "none");
      } finally {
        await agent.close();
      }
      const small = await wideAgent(provider({ model: "local-model", maxTools: 400 }));
      try {
        // No window known for this model: the token threshold (20k) defers them instead.
        assert.equal(small.agent.toolOffer().engine, "local");
      } finally {
        await small.agent.close();
      }
      assert.equal(provider({ maxTools: 64 }).maxTools, 64);
      assert.throws(() => provider({ maxTools: 0 }), ConfigError);
      assert.throws(
        () => provider({ toolSearch: "client" as unknown as "hosted" }),
        /toolSearch must be "hosted" or false/,
      );
    });
  });

  describe("Responses API with the hosted tool_search", () => {
    const responses = (options: Parameters<typeof openai>[0] = {}) =>
      provider({ api: "responses", ...options });

    /** The hosted search's two items: what it was asked, and the function it loaded. */
    const searchItems = () => [
      {
        id: "tsc_01Search",
        type: "tool_search_call",
        call_id: null,
        execution: "server",
        status: "completed",
        arguments: { query: "weather forecast city" },
      },
      {
        id: "tso_01Search",
        type: "tool_search_output",
        call_id: null,
        execution: "server",
        status: "completed",
        tools: [
          {
            type: "function",
            name: FORECAST_WIRE,
            description: "Weather forecast for a city.",
            parameters: { type: "object", properties: { id: { type: "string" } } },
            strict: false,
            defer_loading: true,
          },
        ],
      },
    ];

    it("sends the search tool and deferred functions, and its items back in order", async () => {
      const items = searchItems();
      server.reply(
        openaiToolLimit(
          responsesStream({
            items,
            toolCalls: [{ id: "call_F", name: FORECAST_WIRE, input: { id: "Lisbon" } }],
          }),
        ),
        openaiToolLimit(responsesStream({ text: "Sunny in Lisbon." })),
      );
      const hosted = responses();
      assert.equal(hosted.nativeToolSearch, true);
      const { agent, ran } = await wideAgent(hosted);
      const searches: unknown[] = [];
      agent.on("tool-search", (event) => searches.push(event));
      try {
        assert.equal(agent.toolOffer().engine, "provider");
        const result = await agent.run("Weather in Lisbon?");
        assert.equal(result.text, "Sunny in Lisbon.");
        assert.deepEqual(ran, [`${FORECAST}(Lisbon)`]);
        assert.deepEqual(searches, [
          { turn: 1, engine: "provider", query: "weather forecast city", found: [FORECAST] },
        ]);
        assert.deepEqual(
          agent.toolOffer().found.map((tool) => tool.name),
          [FORECAST],
        );

        const [first, second] = server.requests.map((request) => request.body);
        const tools = first.tools as ResponsesTool[];
        assert.deepEqual(
          tools.slice(0, 3).map((tool) => tool.name ?? tool.type),
          ["read_file", "list_files", "tool_search"],
        );
        assert.deepEqual(tools[2], { type: "tool_search" });
        assert.equal(tools.length, 3 + WIDE_TOOL_COUNT);
        assert.ok(tools.slice(3).every((tool) => tool.defer_loading === true));
        assert.ok(!tools.some((tool) => tool.type === "function" && tool.name === "tool_search"));

        // The search items go back as they came, before the call they made possible.
        assert.deepEqual(
          second.input.map((item: { type?: string; role?: string }) => item.type ?? item.role),
          [
            "user",
            "tool_search_call",
            "tool_search_output",
            "function_call",
            "function_call_output",
          ],
        );
        assert.equal(JSON.stringify(second.input.slice(1, 3)), JSON.stringify(items));
        assert.equal(JSON.stringify(second.tools), JSON.stringify(first.tools));
        assert.equal(second.instructions, first.instructions);
      } finally {
        await agent.close();
      }
    });

    it("sends a found tool loaded once its search output is compacted away", async () => {
      server.reply(
        openaiToolLimit(
          responsesStream({
            items: searchItems(),
            toolCalls: [{ id: "call_F", name: FORECAST_WIRE, input: { id: "Lisbon" } }],
          }),
        ),
        openaiToolLimit(responsesStream({ text: "Sunny in Lisbon." })),
        openaiToolLimit(responsesStream({ text: "Still sunny." })),
      );
      const { agent } = await wideAgent(responses());
      try {
        await agent.run("Weather in Lisbon?");
        agent.conversation.replace([
          { role: "user", content: "Summary: the forecast tool said it is sunny in Lisbon." },
          { role: "assistant", text: "Noted.", toolCalls: [] },
        ]);
        await agent.run("And tomorrow?");
        const tools = server.requests[2]!.body.tools as ResponsesTool[];
        assert.deepEqual(
          tools.slice(0, 4).map((tool) => [tool.name ?? tool.type, tool.defer_loading]),
          [
            ["read_file", undefined],
            ["list_files", undefined],
            ["tool_search", undefined],
            [FORECAST_WIRE, undefined],
          ],
        );
        assert.equal(tools.filter((tool) => tool.name === FORECAST_WIRE).length, 1);
        assert.ok(tools.slice(4).every((tool) => tool.defer_loading === true));
      } finally {
        await agent.close();
      }
    });

    it("uses the agent's own tool_search with toolSearch: false", async () => {
      server.reply(openaiToolLimit(responsesStream({ text: "Which city?" })));
      const own = responses({ toolSearch: false });
      assert.equal(own.nativeToolSearch, false);
      const { agent } = await wideAgent(own);
      try {
        assert.equal(agent.toolOffer().engine, "local");
        await agent.run("Weather?");
        const tools = server.requests[0]!.body.tools as ResponsesTool[];
        assert.deepEqual(
          tools.map((tool) => tool.name),
          ["read_file", "list_files", "tool_search"],
        );
      } finally {
        await agent.close();
      }
    });
  });
});
