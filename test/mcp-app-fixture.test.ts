// The MCP Apps fixture (plugins/mcp/test/fixtures/app-server.ts) as a plain MCP client sees it, through the
// official SDK over real stdio: what studio tests build on must itself be right.
import assert from "node:assert/strict";
import { test } from "node:test";
import { COUNTER_VIEW_URI, MCP_APP_MIME_TYPE } from "#mcp-fixtures/counter-view.js";
import { connectAppServer } from "./support/app-server-client.js";

test("the app fixture names its view, serves it as an MCP App and counts", async (t) => {
  const connection = await connectAppServer();
  t.after(() => connection.close());
  const { client } = connection;

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
