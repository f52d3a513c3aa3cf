import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Agent } from "@pseudoclaude/core";
import { agentRoutes } from "./api/agent-routes.js";
import { appRoutes } from "./api/app-routes.js";
import { mcpRoutes } from "./api/mcp-routes.js";
import { runRoutes } from "./api/run-routes.js";
import { sessionRoutes } from "./api/session-routes.js";
import { skillRoutes } from "./api/skill-routes.js";
import { toolRoutes } from "./api/tool-routes.js";
import { traceRoutes } from "./api/trace-routes.js";
import type { ApprovalDesk } from "./approval-desk.js";
import { EventHub } from "./event-hub.js";
import { StudioHttpError, sendError, sendJson } from "./http-json.js";
import { Router } from "./router.js";
import { RunBook } from "./run-book.js";
import type { SpanRecorder } from "./span-recorder.js";
import { sendUiFile } from "./static-files.js";
import { StudioAccess } from "./studio-access.js";
import type { StudioContext } from "./studio-context.js";
import { ToolStats } from "./tool-stats.js";

/** How to start a studio for an agent. */
export interface StudioOptions {
  agent: Agent;
  /**
   * Where the agent's approvals and elicitations wait for the page: the same desk must have
   * been given to `createAgent({ approve: desk.approver, elicit: desk.elicitor })`.
   */
  desk: ApprovalDesk;
  /** The in-process tracer given to the agent (`tracing: { tracerProvider }`), for Traces. */
  spans?: SpanRecorder | undefined;
  /** Port on 127.0.0.1; default 0, any free port. */
  port?: number | undefined;
  /** The token every request must carry; default 32 random bytes, new at each start. */
  token?: string | undefined;
}

/** A running studio. */
export interface Studio {
  /** The page's address with its token (`http://127.0.0.1:PORT/?token=…`): what a person opens. */
  readonly url: string;
  readonly port: number;
  readonly token: string;
  /** Stop serving, end the live feeds and deny what still waits for an answer. */
  close(): Promise<void>;
}

/**
 * Serve the studio for `agent` on 127.0.0.1 only. Every request needs the token (header
 * `x-studio-token`, `Authorization: Bearer`, `?token=`, or the cookie set when the page was
 * opened with it); see docs/studio-api.md for the API.
 */
export async function startStudio(options: StudioOptions): Promise<Studio> {
  const { agent, desk } = options;
  const token = options.token ?? randomBytes(32).toString("base64url");
  const hub = new EventHub();
  const runs = new RunBook(agent, (event) => hub.publish(event));
  const stats = new ToolStats(agent);
  const context: StudioContext = { agent, desk, hub, runs, stats, spans: options.spans };
  const router = new Router([
    ...agentRoutes(context),
    ...toolRoutes(context),
    ...runRoutes(context),
    ...sessionRoutes(context),
    ...mcpRoutes(context),
    ...skillRoutes(context),
    ...appRoutes(context),
    ...traceRoutes(context),
  ]);
  const unsubscribe = watchAgent(context);

  let access: StudioAccess | undefined;
  const server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => sendError(response, error));
  });
  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    access?.check(request, url);
    if (request.method === "GET" && access?.cameWithUrlToken(url) && url.pathname === "/") {
      // Keep the token in a cookie the page's own requests carry, and out of the address bar.
      response.writeHead(303, { location: "/", "set-cookie": access.cookieHeader() });
      response.end();
      return;
    }
    const found = router.find(request.method ?? "GET", url.pathname);
    if (found && "route" in found) {
      await found.route.handle({ request, response, url, params: found.params });
      return;
    }
    if (found) {
      response.setHeader("allow", found.allowed.join(", "));
      throw new StudioHttpError(405, "method_not_allowed", `Use ${found.allowed.join(" or ")}.`);
    }
    if (request.method === "GET" && !url.pathname.startsWith("/api/")) {
      if (await sendUiFile(response, url.pathname)) return;
    }
    sendJson(response, 404, {
      error: { code: "not_found", message: `Nothing at ${request.method} ${url.pathname}.` },
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    // 127.0.0.1 and nothing else: the studio can run tools, so only this machine may reach it.
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  access = new StudioAccess(token, port);
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    async close() {
      unsubscribe();
      runs.close();
      stats.dispose();
      desk.close();
      hub.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Relay what changes outside runs to the page: questions, tools, servers, diagnostics. */
function watchAgent({ agent, desk, hub, spans }: StudioContext): () => void {
  const offDesk = desk.onChange((event) => hub.publish(event));
  const onChanged = (change: object) => hub.publish({ type: "tools-changed", change });
  const onDiagnostic = (diagnostic: object) => hub.publish({ type: "diagnostic", diagnostic });
  agent.registry.on("changed", onChanged as never);
  agent.on("diagnostic", onDiagnostic as never);
  let spanTimer: NodeJS.Timeout | undefined;
  // Spans end by the hundred in a busy run: the page is told at most every 250 ms.
  const offSpans = spans?.onSpan(() => {
    spanTimer ??= setTimeout(() => {
      spanTimer = undefined;
      hub.publish({ type: "spans" });
    }, 250);
  });
  return () => {
    offDesk();
    offSpans?.();
    clearTimeout(spanTimer);
    agent.registry.off("changed", onChanged as never);
    agent.off("diagnostic", onDiagnostic as never);
  };
}
