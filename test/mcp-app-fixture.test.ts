// The MCP Apps fixture (fixtures/mcp/app-server.ts) as a plain MCP client sees it, through the
// official SDK over real stdio: what studio tests build on must itself be right.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { COUNTER_VIEW_URI, MCP_APP_MIME_TYPE } from "./fixtures/mcp/counter-view.js";
import { eventually, fixture, processAlive } from "./support/mcp-fixtures.js";

/** A connected client of the fixture; closing it ends the server process. */
async function connectAppServer(): Promise<{ client: Client; pid: number }> {
  const client = new Client(
    { name: "app-fixture-check", version: "1.0.0" },
    // A host that renders MCP Apps declares the extension and the view types it can show.
    {
      capabilities: {
        extensions: { "io.modelcontextprotocol/ui": { mimeTypes: [MCP_APP_MIME_TYPE] } },
      },
    },
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [fixture("app-server")],
    stderr: "pipe",
  });
  await client.connect(transport);
  assert.ok(transport.pid, "the fixture runs as a child process");
  return { client, pid: transport.pid };
}

test("the app fixture names its view, serves it as an MCP App and counts", async (t) => {
  const { client, pid } = await connectAppServer();
  t.after(async () => {
    await client.close();
    await eventually(async () => !(await processAlive(pid)), 5_000, "the fixture to exit");
  });

  const { tools } = await client.listTools();
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  assert.deepEqual(byName.get("show_counter")?._meta, { ui: { resourceUri: COUNTER_VIEW_URI } });
  assert.equal(byName.get("increment")?.annotations, undefined);
  assert.equal(byName.get("peek")?.annotations?.readOnlyHint, true);

  const { contents } = await client.readResource({ uri: COUNTER_VIEW_URI });
  const view = contents[0];
  assert.equal(view?.mimeType, MCP_APP_MIME_TYPE);
  const html = view && "text" in view ? view.text : "";
  for (const method of ["ui/initialize", "ui/notifications/initialized", "tools/call"])
    assert.ok(html.includes(`"${method}"`), `the view sends ${method}`);
  assert.ok(html.includes("ui/notifications/tool-result"), "the view renders tool results");
  assert.doesNotMatch(html, /<script[^>]+src=/, "the view loads no external script");

  const incremented = await client.callTool({ name: "increment", arguments: { by: 2 } });
  assert.deepEqual(incremented.structuredContent, { count: 2 });
  assert.deepEqual(incremented.content, [{ type: "text", text: "Count: 2" }]);
  const peeked = await client.callTool({ name: "peek", arguments: {} });
  assert.deepEqual(peeked.structuredContent, { count: 2 });
});
