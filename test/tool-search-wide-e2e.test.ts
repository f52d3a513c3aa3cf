// The whole journey with a wide tool set: 23 MCP servers over real stdio (the official
// reference servers from npm, and 20 public servers' recorded tool sets), over 300 tools,
// driven through the real OpenAI and Anthropic SDKs against local servers that speak their
// wire formats. OpenAI's refuses more than 128 tools a request, as OpenAI does; Anthropic's
// search runs "server-side" in the script, as the Messages API answers it.
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { after, afterEach, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { createAgent, type Provider } from "@pseudoclaude/core";
import { builtinTools } from "@pseudoclaude/plugin-builtin-tools";
import { type McpServerEntry, mcp } from "@pseudoclaude/plugin-mcp";
import { anthropic } from "@pseudoclaude/provider-anthropic";
import { openai } from "@pseudoclaude/provider-openai";
import { createTempWorkspace } from "@pseudoclaude/testing";
import { fixture, scratch } from "#mcp-test/mcp-fixtures.js";
import { EVERYTHING, FILESYSTEM, MEMORY } from "#mcp-test/reference-server-paths.js";
import { anthropicStream } from "./fixtures/providers/anthropic-wire.js";
import { chatStream, openaiToolLimit } from "./fixtures/providers/openai-wire.js";
import { startWireServer, type WireServer } from "./fixtures/providers/wire-server.js";
import { ANTHROPIC_TEST_KEY } from "./support/provider-harness-anthropic.js";
import { OPENAI_TEST_KEY } from "./support/provider-harness-openai.js";

const SETS = readdirSync(
  path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "bench/fixtures/tool-sets"),
)
  .filter((file) => file.endsWith(".json"))
  .map((file) => file.slice(0, -".json".length));

/** An agent on `provider` with every server, in a workspace of its own. */
async function wideAgent(provider: Provider) {
  const logs = await scratch();
  const workspace = await createTempWorkspace("pc-wide-");
  const memoryFile = path.join(workspace.root, "memory.jsonl");
  const servers: Record<string, McpServerEntry> = {
    ref_everything: { type: "stdio", command: process.execPath, args: [EVERYTHING, "stdio"] },
    ref_files: { type: "stdio", command: process.execPath, args: [FILESYSTEM, workspace.root] },
    ref_memory: {
      type: "stdio",
      command: process.execPath,
      args: [MEMORY],
      env: { MEMORY_FILE_PATH: memoryFile },
    },
  };
  for (const set of SETS)
    servers[set] = {
      type: "stdio",
      command: process.execPath,
      args: [fixture("tool-set")],
      env: { FIXTURE_TOOL_SET: set, FIXTURE_LOG: logs.log },
    };
  const agent = await createAgent({
    workspace: workspace.root,
    config: { homeDir: workspace.home },
    provider,
    approve: async () => "allow",
    plugins: [builtinTools(), mcp({ servers })],
  });
  const mcpTools = agent.registry.definitions().filter((tool) => isServerTool(tool.name));
  return {
    agent,
    logs,
    memoryFile,
    mcpTools: mcpTools.length,
    async close() {
      await agent.close();
      await logs.cleanup();
      await workspace.cleanup();
    },
  };
}

/** `mcp__<server>__<tool>`: a server's tool, not one of the MCP plugin's own (`mcp__read_resource`). */
function isServerTool(name: string | undefined): boolean {
  return name !== undefined && /^mcp__[^_].*?__./.test(name);
}

interface WireTool {
  name?: string;
  type?: string;
  defer_loading?: boolean;
  function?: { name: string };
}

describe("over 300 MCP tools from 23 servers, through each provider's wire format", () => {
  let server: WireServer;
  before(async () => {
    server = await startWireServer("/v1");
  });
  afterEach(() => {
    assert.equal(server.pending(), 0, "every scripted reply was used");
    server.reset();
  });
  after(() => server.close());

  it("OpenAI Chat Completions: our tool_search finds the GitHub tool, no request over 128", async () => {
    server.reply(
      openaiToolLimit(
        chatStream({
          toolCalls: [{ name: "tool_search", input: { query: "create an issue in github" } }],
        }),
      ),
      openaiToolLimit(
        chatStream({
          toolCalls: [
            {
              name: "mcp__github__create_issue",
              input: { owner: "acme", repo: "app", title: "Crash on start" },
            },
          ],
        }),
      ),
      openaiToolLimit(chatStream({ text: "Opened the issue." })),
    );
    const wide = await wideAgent(
      openai({ baseURL: server.baseURL, apiKey: OPENAI_TEST_KEY, maxRetries: 0, env: {} }),
    );
    try {
      assert.ok(wide.mcpTools >= 300, `${wide.mcpTools} MCP tools`);
      const result = await wide.agent.run("Open an issue about the crash in acme/app.");
      assert.equal(result.text, "Opened the issue.");
      const sent = server.requests.map((request) =>
        (request.body.tools as WireTool[]).map((tool) => tool.function!.name),
      );
      for (const names of sent) assert.ok(names.length <= 128, `${names.length} tools`);
      assert.ok(sent[0]!.includes("tool_search"));
      assert.ok(!sent[0]!.some(isServerTool), sent[0]!.join());
      assert.ok(sent[1]!.includes("mcp__github__create_issue"));
      assert.equal(result.toolCalls.at(-1)?.result.ok, true);
      assert.ok((await wide.logs.lines()).some((line) => line.startsWith("call create_issue ")));
    } finally {
      await wide.close();
    }
  });

  it("Anthropic: the API's own search finds the memory tool, the real server runs it, the blocks go back", async () => {
    const blocks = [
      {
        type: "server_tool_use" as const,
        id: "srvtoolu_01Wide",
        name: "tool_search_tool_bm25",
        input: { query: "knowledge graph entities" },
      },
      {
        type: "tool_search_tool_result" as const,
        tool_use_id: "srvtoolu_01Wide",
        content: {
          type: "tool_search_tool_search_result" as const,
          tool_references: [
            { type: "tool_reference" as const, tool_name: "mcp__ref_memory__create_entities" },
          ],
        },
      },
      {
        type: "tool_use" as const,
        id: "toolu_01Wide",
        name: "mcp__ref_memory__create_entities",
        input: { entities: [{ name: "Ada", entityType: "person", observations: ["programmer"] }] },
      },
    ];
    server.reply(anthropicStream({ blocks }), anthropicStream({ text: "Remembered Ada." }));
    const wide = await wideAgent(
      anthropic({
        baseURL: server.baseURL.replace(/\/v1$/, ""),
        apiKey: ANTHROPIC_TEST_KEY,
        maxRetries: 0,
        env: {},
      }),
    );
    try {
      assert.ok(wide.mcpTools >= 300, `${wide.mcpTools} MCP tools`);
      const result = await wide.agent.run("Remember Ada, a programmer.");
      assert.equal(result.text, "Remembered Ada.");
      const [first, second] = server.requests;
      const tools = first!.body.tools as WireTool[];
      const loaded = tools.filter((tool) => tool.defer_loading !== true);
      assert.ok(loaded.some((tool) => tool.type === "tool_search_tool_bm25_20251119"));
      assert.ok(!loaded.some((tool) => isServerTool(tool.name)), "every server's tool deferred");
      assert.equal(tools.length - loaded.length, wide.mcpTools);
      assert.equal(JSON.stringify(second!.body.tools), JSON.stringify(first!.body.tools));
      const replayed = (second!.body.messages as Array<{ role: string; content: unknown }>).find(
        (message) => message.role === "assistant",
      );
      assert.deepEqual(
        (replayed!.content as Array<{ type: string }>).map((block) => block.type),
        ["server_tool_use", "tool_search_tool_result", "tool_use"],
      );
      assert.match(await readFile(wide.memoryFile, "utf8"), /"Ada"/);
      assert.deepEqual(
        wide.agent.toolOffer().found.map((tool) => tool.name),
        ["mcp__ref_memory__create_entities"],
      );
    } finally {
      await wide.close();
    }
  });
});
