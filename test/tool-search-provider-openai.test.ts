// OpenAI and tool search with the real `openai` SDK against a local server of ours that
// refuses more than 128 function tools as OpenAI does: Chat Completions stays under the limit
// with the agent's own tool_search (the run that fails without it), and the Responses API's
// hosted tool_search finds deferred functions in one namespace per MCP server, its items and
// the namespace of each call going back with the next request. Which of the two searches an
// agent gets (the model, the endpoint, the option) is checked last.
import assert from "node:assert/strict";
import { after, afterEach, before, describe, it } from "node:test";
import {
  ConfigError,
  createAgent,
  definePlugin,
  ModelError,
  type Provider,
} from "@pseudoclaude/core";
import { createToolNameMap, wireToolName } from "@pseudoclaude/core/provider";
import { MAX_NAMESPACE_DESCRIPTION, openai, toResponsesInput } from "@pseudoclaude/provider-openai";
import { InMemoryToolSource } from "@pseudoclaude/testing";
import { chatStream, openaiToolLimit, responsesStream } from "./fixtures/providers/openai-wire.js";
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

/** The forecast function as the hosted search loads it: in its namespace, alone. */
const forecastFunction = () => ({
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

    /** The hosted search's two items: what it was asked, and the function it loaded. */
    const searchItems = (loaded: Record<string, unknown> = forecastFunction()) => [
      {
        id: "tsc_01Search",
        type: "tool_search_call",
        call_id: null,
        execution: "server",
        status: "completed",
        arguments: { paths: ["weather_v2"] },
      },
      {
        id: "tso_01Search",
        type: "tool_search_output",
        call_id: null,
        execution: "server",
        status: "completed",
        tools: [loaded],
      },
    ];

    it("sends the tools of no MCP server in one namespace named after their source", async () => {
      server.reply(openaiToolLimit(responsesStream({ text: "Which city?" })));
      const hosted = responses();
      assert.equal(hosted.nativeToolSearch, true);
      const { agent } = await wideAgent(hosted);
      try {
        assert.equal(agent.toolOffer().engine, "provider");
        await agent.run("Weather?");
        const tools = server.requests[0]!.body.tools as ResponsesTool[];
        assert.deepEqual(
          tools.map((tool) => `${tool.type}:${tool.name ?? ""}`),
          ["function:read_file", "function:list_files", "tool_search:", "namespace:wide"],
        );
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
        assert.deepEqual(
          tools.slice(0, 3).map((tool) => [tool.type, tool.name, tool.defer_loading]),
          [
            ["function", "read_file", undefined],
            ["function", "list_files", undefined],
            ["tool_search", undefined, undefined],
          ],
        );
        const namespaces = tools.slice(3);
        assert.deepEqual(
          namespaces.map((tool) => [tool.type, tool.name]),
          [
            ...["calendar", "drive", "github", "jira", "maps", "notion", "slack", "stripe"],
            "weather_v2",
          ].map((name) => ["namespace", name]),
        );
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
        assert.deepEqual(
          weather.tools!.map((fn) => fn.name),
          [FORECAST_WIRE],
        );
        const github = namespaces[2]!;
        assert.match(
          github.description!,
          /^Tools of the MCP server "github": archive_attachment, archive_comment, .*, … \(40 tools\)$/,
        );
        // Functions in wire-name order, each as the API takes it.
        const names = github.tools!.map((fn) => fn.name!);
        assert.deepEqual(names, [...names].sort());
        assert.deepEqual(Object.keys(github.tools![0]!).sort(), [
          "defer_loading",
          "description",
          "name",
          "parameters",
          "strict",
          "type",
        ]);
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
            toolCalls: [
              {
                id: "call_F",
                name: FORECAST_WIRE,
                namespace: "weather_v2",
                input: { id: "Lisbon" },
              },
            ],
          }),
        ),
        openaiToolLimit(responsesStream({ text: "Sunny in Lisbon." })),
        openaiToolLimit(
          responsesStream({
            toolCalls: [
              {
                id: "call_G",
                name: FORECAST_WIRE,
                namespace: "weather_v2",
                input: { id: "Porto" },
              },
            ],
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
      } finally {
        await agent.close();
      }
    });

    it("keeps each call's namespace with its turn, and replays none without the hosted search", async () => {
      server.reply(
        openaiToolLimit(
          responsesStream({
            items: searchItems(),
            toolCalls: [
              {
                id: "call_F",
                name: FORECAST_WIRE,
                namespace: "weather_v2",
                input: { id: "Lisbon" },
              },
            ],
          }),
        ),
        openaiToolLimit(responsesStream({ text: "Sunny in Lisbon." })),
      );
      const { agent } = await serverAgent(responses());
      try {
        await agent.run("Weather in Lisbon?");
        const messages = agent.conversation.messages;
        const turn = messages.find((message) => message.role === "assistant");
        assert.ok(turn?.role === "assistant");
        const stored = turn.providerData?.openai as { namespaces?: unknown } | undefined;
        assert.deepEqual(stored?.namespaces, { call_F: "weather_v2" });
        const names = createToolNameMap([FORECAST]);
        const kinds = (input: readonly object[]) =>
          input.map((item) => {
            const { type, role, namespace } = item as Record<string, string | undefined>;
            return `${type ?? role}${namespace ? `@${namespace}` : ""}`;
          });
        assert.deepEqual(kinds(toResponsesInput(messages, names, { hostedToolSearch: true })), [
          "user",
          "tool_search_call",
          "tool_search_output",
          "function_call@weather_v2",
          "function_call_output",
          "assistant",
        ]);
        // A request without the hosted search has no namespaces: the call goes back plain.
        assert.deepEqual(kinds(toResponsesInput(messages, names)), [
          "user",
          "function_call",
          "function_call_output",
          "assistant",
        ]);
      } finally {
        await agent.close();
      }
    });

    it("sends a found tool loaded once its search output is compacted away", async () => {
      server.reply(
        openaiToolLimit(
          responsesStream({
            items: searchItems(),
            toolCalls: [
              {
                id: "call_F",
                name: FORECAST_WIRE,
                namespace: "weather_v2",
                input: { id: "Lisbon" },
              },
            ],
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
        assert.deepEqual(
          tools.slice(0, 4).map((tool) => [tool.name ?? tool.type, tool.defer_loading]),
          [
            ["read_file", undefined],
            ["list_files", undefined],
            ["tool_search", undefined],
            [FORECAST_WIRE, undefined],
          ],
        );
        // Out of its namespace, which held nothing else and is gone.
        assert.ok(!tools.some((tool) => tool.name === "weather_v2"));
        assert.ok(
          !tools.some((tool) => tool.tools?.some((fn) => fn.name === FORECAST_WIRE)),
          "sent once",
        );
        assert.ok(tools.slice(4).every((tool) => tool.type === "namespace"));
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

  describe("which search toolSearch: auto picks", () => {
    const key = { apiKey: OPENAI_TEST_KEY, env: {} };
    const hosted = (options: Parameters<typeof openai>[0]) =>
      openai({ ...key, ...options }).nativeToolSearch;

    it("picks OpenAI's hosted search on the Responses API at OpenAI with gpt-5.4 or later", () => {
      for (const model of ["gpt-5.4", "gpt-5.4-mini", "gpt-5.4-2026-03-05", "gpt-5.5", "gpt-6"])
        assert.equal(hosted({ api: "responses", model }), true, model);
      assert.equal(hosted({ api: "responses" }), true, "the default model");
      assert.equal(
        hosted({ api: "responses", model: "gpt-5.4", baseURL: "https://api.openai.com/v1" }),
        true,
      );
    });

    it("picks ours for older or unknown models, other endpoints and Chat Completions", () => {
      for (const model of ["gpt-4o", "gpt-4.1", "gpt-5", "gpt-5.2", "o3", "llama3.2"])
        assert.equal(hosted({ api: "responses", model }), false, model);
      assert.equal(hosted({ api: "responses", model: "gpt-5.5", baseURL: server.baseURL }), false);
      assert.equal(
        hosted({
          api: "responses",
          model: "gpt-5.5",
          env: { OPENAI_BASE_URL: "https://openrouter.ai/api/v1" },
        }),
        false,
        "the endpoint from the environment",
      );
      assert.equal(hosted({ model: "gpt-5.5" }), false, "Chat Completions");
      assert.equal(hosted({ model: "gpt-5.5", toolSearch: "hosted" }), false, "no search in Chat");
    });

    it("forces the hosted search with hosted, and never uses it with false", () => {
      assert.equal(
        hosted({
          api: "responses",
          model: "gpt-4o",
          baseURL: server.baseURL,
          toolSearch: "hosted",
        }),
        true,
      );
      assert.equal(hosted({ api: "responses", model: "gpt-5.5", toolSearch: false }), false);
      assert.throws(
        () => openai({ ...key, toolSearch: "client" as unknown as "hosted" }),
        /toolSearch must be "auto", "hosted" or false/,
      );
    });

    it("sends a compatible server on the Responses API our tool_search", async () => {
      server.reply(openaiToolLimit(responsesStream({ text: "Which city?" })));
      const { agent } = await wideAgent(provider({ api: "responses", model: "gpt-5.5" }));
      try {
        assert.equal(agent.toolOffer().engine, "local");
        await agent.run("Weather?");
        const tools = server.requests[0]!.body.tools as ResponsesTool[];
        assert.deepEqual(
          tools.map((tool) => `${tool.type}:${tool.name}`),
          ["function:read_file", "function:list_files", "function:tool_search"],
        );
      } finally {
        await agent.close();
      }
    });
  });
});
