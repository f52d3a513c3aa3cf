// The 2026-07-28 echo server: echo-server.ts's tools and knobs (BENCH_INIT_DELAY_MS,
// BENCH_FILLER_TOOLS, BENCH_HTTP=1 with PORT) on the official v2 server package
// (@modelcontextprotocol/server), serving 2026-07-28 only (`legacy: "reject"`, as @mastra/mcp
// 2.0's servers do): a 2025-era `initialize` is refused, so every contender measured against
// it really speaks 2026-07-28 rather than falling back. Stdio through `serveStdio`; Streamable
// HTTP through `createMcpHandler`, stateless, one server per request as the package serves it.
// The low-level `Server` with plain JSON Schemas, as the 2025 server has, so both eras' servers
// do the same work per call.
import http from "node:http";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, Server } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { answerCall, delay, echoTools } from "./echo-tools.js";

const INIT_DELAY_MS = Number(process.env.BENCH_INIT_DELAY_MS ?? 0);
const FILLER = Number(process.env.BENCH_FILLER_TOOLS ?? 0);

const tools = echoTools(FILLER, process.env.BENCH_DISTINCT_SCHEMAS === "1");

function echoServer(): Server {
  const server = new Server(
    { name: "bench-echo-2026", version: "1.0.0" },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler("tools/list", async () => ({ tools }));
  server.setRequestHandler("tools/call", (request) =>
    answerCall(request.params.name, request.params.arguments),
  );
  return server;
}

const onerror = (error: Error) => process.stderr.write(`[bench-echo-2026] ${error.message}\n`);

if (process.env.BENCH_HTTP === "1") {
  const serve = toNodeHandler(createMcpHandler(echoServer, { legacy: "reject", onerror }));
  const httpServer = http.createServer(async (request, response) => {
    // The opening request waits, as `initialize` does on the 2025 server (2026-07-28 names
    // every request's method in the Mcp-Method header).
    if (request.headers["mcp-method"] === "server/discover") await delay(INIT_DELAY_MS);
    // A server's request always has a method and URL; Node types them optional, which the
    // handler's `method?: string` rejects under exactOptionalPropertyTypes.
    const { method = "GET", url = "/" } = request;
    await serve(Object.assign(request, { method, url }), response);
  });
  httpServer.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
    const address = httpServer.address() as { port: number };
    process.stdout.write(`listening ${address.port}\n`);
  });
} else {
  // The opening exchange waits; stdin is read (and buffered) only once serving.
  await delay(INIT_DELAY_MS);
  serveStdio(echoServer, { legacy: "reject", onerror });
}
