// The one MCP server every contender talks to: tool `echo` answers its `text`, plus
// BENCH_FILLER_TOOLS filler tools (each with a small schema, as real servers have), after
// BENCH_INIT_DELAY_MS before answering initialize (as npx downloads or remote servers take).
// stdio by default; Streamable HTTP on PORT (stateful sessions) with BENCH_HTTP=1. Tool
// `sleep` waits `ms` (read-only, for the parallel-calls row); `noise` floods stderr.
import { randomUUID } from "node:crypto";
import http from "node:http";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { answerCall, delay, echoTools } from "./echo-tools.js";

const INIT_DELAY_MS = Number(process.env.BENCH_INIT_DELAY_MS ?? 0);
const FILLER = Number(process.env.BENCH_FILLER_TOOLS ?? 0);
const STDERR_MB = Number(process.env.BENCH_STDERR_MB ?? 0);

const tools = echoTools(FILLER, process.env.BENCH_DISTINCT_SCHEMAS === "1");

function echoServer(): Server {
  const server = new Server(
    { name: "bench-echo", version: "1.0.0" },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, (request) =>
    answerCall(request.params.name, request.params.arguments),
  );
  return server;
}

if (STDERR_MB > 0) {
  const line = `${"x".repeat(1023)}\n`;
  for (let i = 0; i < STDERR_MB * 1024; i++) process.stderr.write(line);
}

if (process.env.BENCH_HTTP === "1") {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const httpServer = http.createServer(async (request, response) => {
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
      if (body?.method === "initialize") await delay(INIT_DELAY_MS);
      const id = request.headers["mcp-session-id"];
      const known = typeof id === "string" ? sessions.get(id) : undefined;
      if (known) return void (await known.handleRequest(request, response, body));
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => void sessions.set(sessionId, transport),
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
      };
      await echoServer().connect(transport);
      await transport.handleRequest(request, response, body);
    } catch (error) {
      if (!response.headersSent) response.writeHead(500, { "Content-Type": "text/plain" });
      response.end(String(error));
    }
  });
  httpServer.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
    const address = httpServer.address() as { port: number };
    process.stdout.write(`listening ${address.port}\n`);
  });
} else {
  // The handshake waits; stdin is read (and buffered) only once connected.
  await delay(INIT_DELAY_MS);
  await echoServer().connect(new StdioServerTransport());
}
