// A client of the MCP Apps fixture (plugins/mcp/test/fixtures/app-server.ts) through the official SDK over real
// stdio, for tests that need the server itself rather than an agent around it.
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  getDefaultEnvironment,
  StdioClientTransport,
} from "@modelcontextprotocol/sdk/client/stdio.js";
import { MCP_APP_MIME_TYPE } from "#mcp-fixtures/counter-view.js";
import { eventually, fixture, processAlive } from "#mcp-test/mcp-fixtures.js";

/** A connected client and the server's pid; `close` ends the client and waits for the process. */
export interface AppServerConnection {
  client: Client;
  pid: number;
  close(): Promise<void>;
}

/** Start the fixture (its environment plus `env`) and connect as a host that renders MCP Apps. */
export async function connectAppServer(
  env: Record<string, string> = {},
): Promise<AppServerConnection> {
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
    env: { ...getDefaultEnvironment(), ...env },
    stderr: "pipe",
  });
  await client.connect(transport);
  const pid = transport.pid;
  assert.ok(pid, "the fixture runs as a child process");
  return {
    client,
    pid,
    async close() {
      await client.close();
      await eventually(async () => !(await processAlive(pid)), 5_000, "the app fixture to exit");
    },
  };
}
