// The smallest web host of an MCP App that the browser tests need: a page on 127.0.0.1 that loads
// a view into a sandboxed iframe, answers its `ui/initialize`, pushes one tool's input and result
// once the view says `ui/notifications/initialized`, and relays the view's `tools/call` to the
// MCP server through its own HTTP endpoint (as a web studio would). It proves a view speaks the
// protocol; it is not a model of our host (no sandbox proxy, no CSP, no consent).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";

/** What the host shows and how its stand-in policy answers the view's calls. */
export interface TestHostOptions {
  /** The server the view's calls go to. */
  client: Client;
  /** The view's resource URI (read through `client`). */
  viewUri: string;
  /** The tool whose input and result the view is shown with. */
  tool: { name: string; arguments: Record<string, unknown> };
  /** Tools the view may not call: the host answers with a JSON-RPC error instead. */
  denied?: ReadonlySet<string> | undefined;
}

/** A running test host: its page's URL and how to stop it. */
export interface TestHost {
  url: string;
  close(): Promise<void>;
}

/** JSON-RPC error code the host uses for a refused call (implementation-defined per the spec). */
export const DENIED_CODE = -32000;

// Every message from the view is kept in window.received, so tests can check what it sent.
const HOST_PAGE = `<!doctype html>
<html>
<head><meta charset="utf-8"><title>MCP App test host</title><link rel="icon" href="data:,"></head>
<body>
<iframe id="view" sandbox="allow-scripts" style="width:480px;height:320px;border:1px solid #ccc"></iframe>
<script>
  const frame = document.getElementById("view");
  window.received = [];
  const post = (message) =>
    frame.contentWindow.postMessage(Object.assign({ jsonrpc: "2.0" }, message), "*");
  const server = (path, body) =>
    fetch(path, { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify(body) }).then((response) => response.json());
  window.addEventListener("message", async (event) => {
    if (event.source !== frame.contentWindow) return;
    const message = event.data;
    window.received.push(message);
    if (message.method === "ui/initialize") {
      post({ id: message.id, result: {
        protocolVersion: message.params.protocolVersion,
        hostInfo: { name: "test-host", version: "1.0.0" },
        hostCapabilities: { serverTools: {} },
        hostContext: { theme: "light", displayMode: "inline" },
      } });
    } else if (message.method === "ui/notifications/initialized") {
      const shown = await server("/tool", {});
      post({ method: "ui/notifications/tool-input", params: { arguments: shown.arguments } });
      post({ method: "ui/notifications/tool-result", params: shown.result });
    } else if (message.method === "tools/call") {
      post(Object.assign({ id: message.id }, await server("/call", message.params)));
    }
  });
  fetch("/view").then((response) => response.text()).then((html) => { frame.srcdoc = html; });
</script>
</body>
</html>`;

/** Serve the host page for `options` on a free port of 127.0.0.1. */
export async function startTestHost(options: TestHostOptions): Promise<TestHost> {
  const { client, viewUri, tool, denied = new Set<string>() } = options;
  const handle = async (method: string, path: string, body: string): Promise<[string, string]> => {
    if (method === "GET" && path === "/") return ["text/html; charset=utf-8", HOST_PAGE];
    if (method === "GET" && path === "/view") {
      const [view] = (await client.readResource({ uri: viewUri })).contents;
      return ["text/html; charset=utf-8", view && "text" in view ? view.text : ""];
    }
    if (method === "POST" && path === "/tool") {
      const result = await client.callTool(tool);
      return ["application/json", JSON.stringify({ arguments: tool.arguments, result })];
    }
    if (method === "POST" && path === "/call") {
      const params = JSON.parse(body) as { name: string; arguments?: Record<string, unknown> };
      // A refusal is a JSON-RPC error to the view, not an HTTP error: the call itself was valid.
      const answer = denied.has(params.name)
        ? { error: { code: DENIED_CODE, message: `Denied: ${params.name} needs approval` } }
        : { result: await client.callTool(params) };
      return ["application/json", JSON.stringify(answer)];
    }
    throw new Error(`no route ${method} ${path}`);
  };
  const server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => {
      body += chunk;
    });
    request.on("end", () => {
      handle(request.method ?? "GET", request.url ?? "/", body).then(
        ([type, text]) => response.writeHead(200, { "content-type": type }).end(text),
        (error: unknown) => response.writeHead(404).end(String(error)),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => closeServer(server),
  };
}

function closeServer(server: Server): Promise<void> {
  // Chromium may keep an idle keep-alive connection open; close() alone would wait for it.
  server.closeAllConnections();
  return new Promise((resolve, reject) =>
    server.close((error) => (error ? reject(error) : resolve())),
  );
}
