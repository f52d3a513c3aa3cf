// OpenAI and tool search with the real `openai` SDK against a local server of ours that
// refuses more than 128 function tools as OpenAI does: Chat Completions stays under the limit
// with the agent's own tool_search (the run that fails without it), and the Responses API's
// hosted tool_search finds deferred functions in one namespace per MCP server, its items and
// the namespace of each call going back with the next request. Which of the two searches a
// provider picks is checked in plugins/provider-openai/test/hosted-search-support.test.ts.
import assert from "node:assert/strict";
import { after, afterEach, before, describe, it } from "node:test";
import {
  ConfigError,
  createAgent,
  definePlugin,
  ModelError,
  type Provider,
} from "@pseudoclaude/core";
import { wireToolName } from "@pseudoclaude/core/provider";
import { MAX_NAMESPACE_DESCRIPTION, openai } from "@pseudoclaude/provider-openai";
import { InMemoryToolSource } from "@pseudoclaude/testing";
import {
  chatStream,
  hostedSearchItems,
  openaiToolLimit,
  responsesStream,
} from "./fixtures/providers/openai-wire.js";
import {
  builtinTools,
  FORECAST,
  WIDE_TOOL_COUNT,
  wideAgent,
  wideServerTools,
} from "./fixtures/providers/wide-tools.js";
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
  description?: string;
  defer_loading?: boolean;
  /** A namespace's functions. */
  tools?: ResponsesTool[];
}

/** Each tool sent as `type:name`, `+deferred` where it is. */
const sent = (tools: readonly ResponsesTool[]) =>
  tools.map((tool) => `${tool.type}:${tool.name ?? ""}${tool.defer_loading ? "+deferred" : ""}`);

/** The built-in tools, loaded, and the hosted search: what starts every request. */
const LOADED = ["function:read_file", "function:list_files", "tool_search:"];

/** The hosted search asked for the weather namespace and loaded the forecast function in it. */
const searchItems = () =>
  hostedSearchItems({ paths: ["weather_v2"] }, [
    {
      type: "namespace",
      name: "weather_v2",
      description: 'Tools of the MCP server "weather.v2": get_forecast (1 tool)',
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
  ]);

/** The model's call of the forecast function, in the namespace the search loaded it from. */
const forecastCall = (id: string, city: string) => ({
  id,
  name: FORECAST_WIRE,
  namespace: "weather_v2",
  input: { id: city },
});

/**
 * The wide tool set as the MCP plugin lists it: each tool with its server in `meta.server`
 * and the server's own name for it in `meta.remote_name` (`mcp__<server>__<name>`).
 */
async function serverAgent(provider: Provider) {
  const { tools, ran } = wideServerTools();
  for (const tool of tools) {
    const [, server, remote] = /^mcp__(.+?)__(.+)$/.exec(tool.definition.name)!;
    tool.definition.meta = { server, remote_name: remote };
  }
  const source = new InMemoryToolSource("mcp", tools);
  const agent = await createAgent({
    provider,
    config: false,
    tools: builtinTools(),
    plugins: [
      definePlugin({ name: "servers", register: (context) => void context.addToolSource(source) }),
    ],
    systemPrompt: "You are a test agent.",
  });
  return { agent, ran };
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
    });
  });

  describe("Responses API with the hosted tool_search", () => {
    // The local server is not OpenAI's endpoint: `hosted` asks for the search it answers.
    const responses = (options: Parameters<typeof openai>[0] = {}) =>
      provider({ api: "responses", toolSearch: "hosted", ...options });

    it("sends the tools of no MCP server in one namespace named after their source", async () => {
      server.reply(openaiToolLimit(responsesStream({ text: "Which city?" })));
      const hosted = responses();
      assert.equal(hosted.nativeToolSearch, true);
      const { agent } = await wideAgent(hosted);
      try {
        assert.equal(agent.toolOffer().engine, "provider");
        await agent.run("Weather?");
        const tools = server.requests[0]!.body.tools as ResponsesTool[];
        assert.deepEqual(sent(tools), [...LOADED, "namespace:wide"]);
        const wide = tools[3]!;
        assert.equal(wide.tools!.length, WIDE_TOOL_COUNT);
        assert.match(wide.description!, /^Tools of "wide": mcp__calendar__archive_attachment, /);
        assert.match(wide.description!, /, … \(320 tools\)$/);
      } finally {
        await agent.close();
      }
    });

    it("sends one namespace per MCP server, its functions deferred inside, loaded tools at the top", async () => {
      server.reply(openaiToolLimit(responsesStream({ text: "Which city?" })));
      const { agent } = await serverAgent(responses());
      try {
        await agent.run("Weather?");
        const tools = server.requests[0]!.body.tools as ResponsesTool[];
        const servers = "calendar drive github jira maps notion slack stripe weather_v2".split(" ");
        assert.deepEqual(sent(tools), [...LOADED, ...servers.map((name) => `namespace:${name}`)]);
        const namespaces = tools.slice(3);
        // The namespace itself is not deferred: the functions in it are.
        for (const namespace of namespaces) {
          assert.equal(namespace.defer_loading, undefined);
          assert.ok(namespace.tools!.every((fn) => fn.type === "function" && fn.defer_loading));
          assert.ok(namespace.description!.length <= MAX_NAMESPACE_DESCRIPTION);
        }
        assert.equal(
          namespaces.reduce((sum, namespace) => sum + namespace.tools!.length, 0),
          WIDE_TOOL_COUNT,
        );
        const weather = namespaces.at(-1)!;
        assert.equal(
          weather.description,
          'Tools of the MCP server "weather.v2": get_forecast (1 tool)',
        );
        assert.deepEqual(sent(weather.tools!), [`function:${FORECAST_WIRE}+deferred`]);
        const github = namespaces[2]!;
        assert.match(
          github.description!,
          /^Tools of the MCP server "github": archive_attachment, archive_comment, .*, … \(40 tools\)$/,
        );
        // Functions in wire-name order, each as the API takes it.
        const names = github.tools!.map((fn) => fn.name!);
        assert.deepEqual(names, [...names].sort());
        const keys = ["defer_loading", "description", "name", "parameters", "strict", "type"];
        assert.deepEqual(Object.keys(github.tools![0]!).sort(), keys);
      } finally {
        await agent.close();
      }
    });

    it("runs a namespaced call, replays it with its namespace and sends the same tools throughout", async () => {
      const items = searchItems();
      server.reply(
        openaiToolLimit(
          responsesStream({
            items,
            toolCalls: [forecastCall("call_F", "Lisbon")],
          }),
        ),
        openaiToolLimit(responsesStream({ text: "Sunny in Lisbon." })),
        openaiToolLimit(
          responsesStream({
            toolCalls: [forecastCall("call_G", "Porto")],
          }),
        ),
        openaiToolLimit(responsesStream({ text: "Sunny in Porto too." })),
      );
      const { agent, ran } = await serverAgent(responses());
      const searches: unknown[] = [];
      agent.on("tool-search", (event) => searches.push(event));
      try {
        const result = await agent.run("Weather in Lisbon?");
        assert.equal(result.text, "Sunny in Lisbon.");
        await agent.run("And in Porto?");
        assert.deepEqual(ran, [`${FORECAST}(Lisbon)`, `${FORECAST}(Porto)`]);
        // What the search loaded from the namespace is reported by registry name.
        assert.deepEqual(searches, [
          { turn: 1, engine: "provider", query: '{"paths":["weather_v2"]}', found: [FORECAST] },
        ]);

        const bodies = server.requests.map((request) => request.body);
        const calls = (input: Array<Record<string, unknown>>) =>
          input
            .filter((item) => item.type === "function_call")
            .map((item) => [item.call_id, item.namespace, item.name]);
        assert.deepEqual(calls(bodies[1].input), [["call_F", "weather_v2", FORECAST_WIRE]]);
        assert.deepEqual(calls(bodies[3].input), [
          ["call_F", "weather_v2", FORECAST_WIRE],
          ["call_G", "weather_v2", FORECAST_WIRE],
        ]);
        // The search items go back as they came, before the call they made possible.
        assert.deepEqual(
          bodies[1].input.map((item: { type?: string; role?: string }) => item.type ?? item.role),
          [
            "user",
            "tool_search_call",
            "tool_search_output",
            "function_call",
            "function_call_output",
          ],
        );
        assert.equal(JSON.stringify(bodies[1].input.slice(1, 3)), JSON.stringify(items));
        // Byte for byte the same tools before the search, after it and in the next run: the
        // found function stays deferred in its namespace, loaded by the search output.
        for (const body of bodies.slice(1)) {
          assert.equal(JSON.stringify(body.tools), JSON.stringify(bodies[0].tools));
          assert.equal(body.instructions, bodies[0].instructions);
        }
        assert.deepEqual(
          agent.toolOffer().found.map((tool) => tool.name),
          [FORECAST],
        );
        // Where the namespace is kept: with the turn, by call id.
        const turn = agent.conversation.messages.find((message) => message.role === "assistant");
        assert.deepEqual(turn?.role === "assistant" && turn.providerData?.openai, {
          items,
          namespaces: { call_F: "weather_v2" },
        });
      } finally {
        await agent.close();
      }
    });

    it("sends a found tool loaded once its search output is compacted away", async () => {
      server.reply(
        openaiToolLimit(
          responsesStream({
            items: searchItems(),
            toolCalls: [forecastCall("call_F", "Lisbon")],
          }),
        ),
        openaiToolLimit(responsesStream({ text: "Sunny in Lisbon." })),
        openaiToolLimit(responsesStream({ text: "Still sunny." })),
      );
      const { agent } = await serverAgent(responses());
      try {
        await agent.run("Weather in Lisbon?");
        agent.conversation.replace([
          { role: "user", content: "Summary: the forecast tool said it is sunny in Lisbon." },
          { role: "assistant", text: "Noted.", toolCalls: [] },
        ]);
        await agent.run("And tomorrow?");
        const tools = server.requests[2]!.body.tools as ResponsesTool[];
        // Loaded after the search tool, out of its namespace, which held nothing else and is gone.
        assert.deepEqual(sent(tools).slice(0, 4), [...LOADED, `function:${FORECAST_WIRE}`]);
        assert.ok(!sent(tools).includes("namespace:weather_v2"));
        assert.ok(tools.slice(4).every((tool) => tool.type === "namespace"));
      } finally {
        await agent.close();
      }
    });

    it("uses the agent's own tool_search with toolSearch: false, and with auto on another endpoint", async () => {
      // `auto` keeps the hosted search to OpenAI's own endpoint: this server is not it.
      for (const own of [responses({ toolSearch: false }), provider({ api: "responses" })]) {
        server.reply(openaiToolLimit(responsesStream({ text: "Which city?" })));
        assert.equal(own.nativeToolSearch, false);
        const { agent } = await wideAgent(own);
        try {
          assert.equal(agent.toolOffer().engine, "local");
          await agent.run("Weather?");
          const tools = server.requests.at(-1)!.body.tools as ResponsesTool[];
          assert.deepEqual(sent(tools), [...LOADED.slice(0, 2), "function:tool_search"]);
        } finally {
          await agent.close();
        }
      }
    });
  });
});
