// MCP Apps behind the gateway, as a host such as Claude Desktop meets them: `pseudoclaude serve
// --mcp` in front of the plugin's App fixture over real stdio, driven by the official v2 client
// in both revisions, over stdio and Streamable HTTP. With the user's `gateway.apps: true`, the
// gateway tells the server it hosts views, and a client that renders views (it declares
// `io.modelcontextprotocol/ui`) sees each tool's `_meta.ui`, reads the view through the gateway
// and may call the tool only views may; a client that does not is never listed that tool and
// cannot call it. Without it (the default), the server hears of no views and clients get none.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import { COUNTER_VIEW_URI, MCP_APP_MIME_TYPE } from "#mcp-fixtures/counter-view.js";
import { fixture } from "#mcp-test/mcp-fixtures.js";
import { CLI_BIN } from "./support/cli.js";
import { type GatewayProcess, startHttpGateway } from "./support/gateway-process.js";
import { gatewayEnv } from "./support/gateway-workspace.js";

const APPS = { "io.modelcontextprotocol/ui": { mimeTypes: [MCP_APP_MIME_TYPE] } };
/** The counter's view as the gateway serves it: qualified by its server. */
const SERVED_VIEW = `ui://mcp.counter/${COUNTER_VIEW_URI.slice("ui://".length)}`;

interface Listed {
  name: string;
  _meta?: { ui?: { resourceUri?: string; visibility?: string[] } };
}

/**
 * A workspace whose user config has the App server (its log in `server.log`), its tools
 * allowed, the audit off, and these `gateway` lines.
 */
async function appWorkspace(gateway: readonly string[] = ["  apps: true"]): Promise<TempWorkspace> {
  const workspace = await createTempWorkspace("pc-gateway-apps-");
  await workspace.writeConfig(
    "user",
    [
      "mcp_servers:",
      "  counter:",
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [${JSON.stringify(fixture("app-server"))}]`,
      `    env: { FIXTURE_LOG: ${JSON.stringify(path.join(workspace.root, "server.log"))} }`,
      "permissions:",
      '  allow: ["mcp__counter__*"]',
      "gateway:",
      "  audit: false",
      ...gateway,
    ].join("\n"),
  );
  return workspace;
}

/** The extensions the App server was told of when the gateway connected to it. */
async function declaredToServer(workspace: TempWorkspace): Promise<string[]> {
  const log = await readFile(path.join(workspace.root, "server.log"), "utf8");
  const line = log.split("\n").find((entry) => entry.startsWith("client extensions "));
  assert.ok(line, log);
  return JSON.parse(line.slice("client extensions ".length)) as string[];
}

/** How a test reaches the gateway: a stdio child of its own, or a running HTTP gateway. */
type Over = "stdio" | GatewayProcess;

async function connect(
  workspace: TempWorkspace,
  era: "2025-11-25" | "2026-07-28",
  hostsApps: boolean,
  over: Over = "stdio",
): Promise<Client> {
  const client = new Client(
    { name: `apps-${era}-${hostsApps}`, version: "1.0.0" },
    {
      capabilities: hostsApps ? { extensions: APPS } : {},
      versionNegotiation: { mode: era === "2026-07-28" ? { pin: era } : "legacy" },
    },
  );
  await client.connect(
    over === "stdio"
      ? new StdioClientTransport({
          command: process.execPath,
          args: [CLI_BIN, "serve", "--mcp", "--workspace", workspace.root],
          env: gatewayEnv(workspace),
          cwd: workspace.root,
          stderr: "pipe",
        })
      : new StreamableHTTPClientTransport(new URL(over.url), {
          requestInit: { headers: { Authorization: `Bearer ${over.token}` } },
        }),
  );
  return client;
}

/** What a client that renders views is given: every tool's view, the view, its app tools. */
async function expectAppsCarried(client: Client): Promise<void> {
  const { tools } = (await client.listTools()) as { tools: Listed[] };
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  assert.deepEqual(byName.get("mcp__counter__show_counter")?._meta?.ui, {
    resourceUri: SERVED_VIEW,
  });
  assert.deepEqual(byName.get("mcp__counter__reset")?._meta?.ui, {
    resourceUri: SERVED_VIEW,
    visibility: ["app"],
  });
  assert.deepEqual(byName.get("mcp__counter__announce")?._meta?.ui, {
    visibility: ["model"],
  });
  const { resources } = await client.listResources();
  assert.ok(
    resources.some((resource) => resource.uri === SERVED_VIEW),
    JSON.stringify(resources.map((resource) => resource.uri)),
  );
  const read = await client.readResource({ uri: SERVED_VIEW });
  const view = read.contents[0] as { uri: string; mimeType?: string; text?: string };
  assert.equal(view.uri, SERVED_VIEW);
  assert.equal(view.mimeType, MCP_APP_MIME_TYPE);
  assert.match(view.text ?? "", /ui\/initialize/);

  await client.callTool({ name: "mcp__counter__increment", arguments: { by: 2 } });
  const reset = (await client.callTool({ name: "mcp__counter__reset", arguments: {} })) as {
    isError?: boolean;
    structuredContent?: unknown;
  };
  assert.notEqual(reset.isError, true, JSON.stringify(reset));
  assert.deepEqual(reset.structuredContent, { count: 0 });
}

for (const era of ["2025-11-25", "2026-07-28"] as const) {
  describe(`the gateway in front of an MCP App server (${era})`, () => {
    let workspace: TempWorkspace;
    before(async () => {
      workspace = await appWorkspace();
    });
    after(() => workspace.cleanup());

    it("gives a client that renders views each tool's view, the view itself, and its app tools", async () => {
      const client = await connect(workspace, era, true);
      try {
        await expectAppsCarried(client);
        assert.deepEqual(await declaredToServer(workspace), ["io.modelcontextprotocol/ui"]);
      } finally {
        await client.close();
      }
    });

    it("never lists a tool only views may call to a client that renders none, nor runs it", async () => {
      const client = await connect(workspace, era, false);
      try {
        const { tools } = (await client.listTools()) as { tools: Listed[] };
        const names = tools.map((tool) => tool.name);
        assert.ok(names.includes("mcp__counter__announce"), names.join(", "));
        assert.ok(!names.includes("mcp__counter__reset"));
        await assert.rejects(
          client.callTool({ name: "mcp__counter__reset", arguments: {} }),
          /Unknown tool: mcp__counter__reset/,
        );
      } finally {
        await client.close();
      }
    });
  });
}

describe("the gateway in search mode in front of an MCP App server", () => {
  it("never lets call_tool (the client's model) reach a tool only views may call; the view still may", async () => {
    const workspace = await appWorkspace(["  apps: true", "  expose_mode: search"]);
    const client = await connect(workspace, "2025-11-25", true);
    try {
      await assert.rejects(
        client.callTool({
          name: "call_tool",
          arguments: { name: "mcp__counter__reset", arguments: {} },
        }),
        /Unknown tool: mcp__counter__reset/,
      );
      const found = (await client.callTool({
        name: "search_tools",
        arguments: { query: "reset counter" },
      })) as { content: Array<{ text?: string }> };
      assert.doesNotMatch(JSON.stringify(found.content), /mcp__counter__reset/);
      const byView = (await client.callTool({ name: "mcp__counter__reset", arguments: {} })) as {
        isError?: boolean;
        structuredContent?: unknown;
      };
      assert.deepEqual(byView.structuredContent, { count: 0 });
    } finally {
      await client.close();
      await workspace.cleanup();
    }
  });
});

for (const era of ["2025-11-25", "2026-07-28"] as const) {
  describe(`the gateway over Streamable HTTP in front of an MCP App server (${era})`, () => {
    let workspace: TempWorkspace;
    let gateway: GatewayProcess;
    before(async () => {
      workspace = await appWorkspace();
      gateway = await startHttpGateway(workspace);
    });
    after(async () => {
      await gateway?.stop();
      await workspace?.cleanup();
    });

    it("carries the views to a client that renders them, and keeps view tools from one that does not", async () => {
      const host = await connect(workspace, era, true, gateway);
      try {
        await expectAppsCarried(host);
      } finally {
        await host.close();
      }
      const plain = await connect(workspace, era, false, gateway);
      try {
        const { tools } = (await plain.listTools()) as { tools: Listed[] };
        assert.ok(!tools.some((tool) => tool.name === "mcp__counter__reset"));
        await assert.rejects(
          plain.callTool({ name: "mcp__counter__reset", arguments: {} }),
          /Unknown tool: mcp__counter__reset/,
        );
      } finally {
        await plain.close();
      }
    });
  });
}

describe("the gateway without gateway.apps (the default)", () => {
  it("tells the server of no views and gives even a client that renders them none", async () => {
    const workspace = await appWorkspace([]);
    const project = "gateway:\n  apps: true\n";
    // A repository cannot turn views on: `apps` counts only in the user's own config.
    await workspace.writeConfig("project", project);
    const client = await connect(workspace, "2026-07-28", true);
    try {
      const { tools } = (await client.listTools()) as { tools: Listed[] };
      const names = tools.map((tool) => tool.name);
      assert.ok(names.includes("mcp__counter__show_counter"), names.join(", "));
      assert.ok(!names.includes("mcp__counter__reset"), "no tool only views may call");
      assert.deepEqual(
        tools.filter((tool) => tool._meta?.ui !== undefined).map((tool) => tool.name),
        [],
        "no view meta",
      );
      const { resources } = await client.listResources();
      assert.ok(!resources.some((resource) => resource.uri.startsWith("ui://")));
      await assert.rejects(
        client.readResource({ uri: SERVED_VIEW }),
        /served only with gateway\.apps: true/,
      );
      await assert.rejects(
        client.callTool({ name: "mcp__counter__reset", arguments: {} }),
        /Unknown tool: mcp__counter__reset/,
      );
      assert.deepEqual(await declaredToServer(workspace), []);
    } finally {
      await client.close();
      await workspace.cleanup();
    }
  });
});
