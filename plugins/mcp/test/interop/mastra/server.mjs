// A @mastra/mcp 2.0.0 MCPServer (with @mastra/core 1.71.0, its peer), the interop peer of
// test/mcp-mastra.test.ts: it serves MCP 2026-07-28 only and rejects a 2025-era opening, so
// only a client that speaks the new revision reaches it. Plain JavaScript run by Node, not
// compiled by the root build: its dependencies live in this folder's own package (engines not
// strict in its .npmrc), installed by the test (test/support/mastra-package.ts) when missing
// or when its lockfile changed. Why not a root devDependency: @mastra/mcp and @mastra/core
// declare Node >= 22.13, the root installs with engine-strict=true (which catches a Node-22
// upgrade of a real dependency), and npm has no per-package waiver (`overrides` of `engines`
// are ignored: tried, `npm install` still refuses @mastra/core on Node 20). Mastra runs on
// Node 20 as far as this server and bench/ use it.
//
// MASTRA_TRANSPORT=stdio serves stdin/stdout; =http serves Streamable HTTP on PORT at /mcp.
// Every start, every HTTP request's Mcp-Method and every cancelled call go to FIXTURE_LOG.
import { appendFileSync } from "node:fs";
import { createServer } from "node:http";
import { createTool } from "@mastra/core/tools";
import { MCPServer } from "@mastra/mcp";
import { z } from "zod";

function log(line) {
  if (process.env.FIXTURE_LOG) appendFileSync(process.env.FIXTURE_LOG, `${line}\n`);
}

const echo = createTool({
  id: "echo",
  description: "Echo the text back.",
  inputSchema: z.object({ text: z.string() }),
  execute: async ({ text }) => text,
});

const pid = createTool({
  id: "pid",
  description: "The server's process id.",
  inputSchema: z.object({}),
  execute: async () => String(process.pid),
});

// Mastra's elicitation in 2.0: the tool suspends, the server answers input_required with a
// form made of resumeSchema, and the tool runs again with the answer in resumeData.
const confirmAction = createTool({
  id: "confirm_action",
  description: "Ask the person to confirm.",
  inputSchema: z.object({ action: z.string() }),
  suspendSchema: z.object({ message: z.string() }),
  resumeSchema: z.object({ confirm: z.boolean() }),
  execute: async ({ action }, context) => {
    if (!context.resumeData) {
      await context.suspend?.({ message: `Really ${action}?` });
      return undefined;
    }
    return `${action}: ${context.resumeData.confirm ? "done" : "skipped"}`;
  },
});

const slow = createTool({
  id: "slow",
  description: "Wait until cancelled or 30 s.",
  inputSchema: z.object({}),
  execute: async (_input, context) => {
    const signal = context.abortSignal ?? context.mcp?.extra?.signal;
    for (let i = 0; i < 300; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      if (signal?.aborted) {
        log("cancelled slow");
        throw new Error("cancelled");
      }
    }
    return "finished";
  },
});

const addTool = createTool({
  id: "add_tool",
  description: "Register one more tool (a runtime change of the tool list).",
  inputSchema: z.object({ name: z.string() }),
  execute: async ({ name }) => {
    await server.toolActions.add({
      [name]: createTool({
        id: name,
        description: "Added later.",
        inputSchema: z.object({}),
        execute: async () => name,
      }),
    });
    return `registered ${name}`;
  },
});

const server = new MCPServer({
  id: "mastra-interop",
  name: "mastra-interop",
  version: "2.0.0",
  tools: { echo, pid, confirm_action: confirmAction, slow, add_tool: addTool },
});

log(`start ${process.pid}`);
if (process.env.MASTRA_TRANSPORT === "http") {
  createServer((request, response) => {
    log(`${request.method} ${request.headers["mcp-method"] ?? "-"}`);
    const url = new URL(request.url ?? "/", `http://${request.headers.host}`);
    void server.startHTTP({ url, httpPath: "/mcp", req: request, res: response });
  }).listen(Number(process.env.PORT), "127.0.0.1");
} else {
  await server.startStdio();
}
