import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError, api, post } from "../api.js";
import type { CallOutcome, ToolInfo, ToolResult } from "../types.js";

/** The MCP Apps protocol version the studio speaks as a host (ext-apps, stable 2026-01-26). */
const APPS_PROTOCOL = "2026-01-26";

interface JsonRpcMessage {
  jsonrpc: "2.0";
  id?: string | number;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: { code: number; message: string };
}

/**
 * An MCP App's view in a sandboxed frame (scripts only: an opaque origin with no access to
 * the studio, its cookie or its token), and the host side of the MCP Apps bridge: JSON-RPC over
 * postMessage. The view gets the tool's input and result; it may call its own server's tools
 * (through the studio's policy: a side effect is approved in the page, a deny rule holds) and
 * read its server's resources. It may not message the model or open links from here.
 */
export function AppFrame({ tool, outcome }: { tool: ToolInfo; outcome: CallOutcome }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [height, setHeight] = useState(240);
  const [log, setLog] = useState<string[]>([]);
  /** What the view's declared CSP asked for that the studio refused, said beside it. */
  const [refused, setRefused] = useState<string[]>([]);
  const initialized = useRef(false);

  useEffect(() => {
    api<{ csp?: { refused?: string[] } }>(`/api/apps/${encodeURIComponent(tool.name)}`)
      .then((view) => setRefused(view.csp?.refused ?? []))
      .catch(() => setRefused([]));
  }, [tool.name]);

  useEffect(() => {
    const send = (message: Omit<JsonRpcMessage, "jsonrpc">) =>
      // The view's origin is opaque ("null"), so it cannot be named as the target.
      frame.current?.contentWindow?.postMessage({ jsonrpc: "2.0", ...message }, "*");
    const sendToolData = () => {
      send({ method: "ui/notifications/tool-input", params: { arguments: {} } });
      send({ method: "ui/notifications/tool-result", params: toCallToolResult(outcome.result) });
    };
    const note = (line: string) => setLog((lines) => [...lines.slice(-19), line]);

    const onMessage = async (event: MessageEvent) => {
      // Only this frame's view speaks to this bridge.
      if (event.source !== frame.current?.contentWindow) return;
      const message = event.data as JsonRpcMessage;
      if (message?.jsonrpc !== "2.0" || typeof message.method !== "string") return;
      const { id, method, params = {} } = message;
      const reply = (result: unknown) => id !== undefined && send({ id, result });
      const fail = (code: number, text: string) =>
        id !== undefined && send({ id, error: { code, message: text } });
      switch (method) {
        case "ui/initialize":
          reply({
            protocolVersion: APPS_PROTOCOL,
            hostInfo: { name: "pseudoclaude-studio", version: "0.1.0" },
            hostCapabilities: { serverTools: {}, serverResources: {}, logging: {} },
            hostContext: {
              theme: "light",
              displayMode: "inline",
              availableDisplayModes: ["inline"],
            },
          });
          return;
        case "ui/notifications/initialized":
          initialized.current = true;
          sendToolData();
          return;
        case "ui/notifications/size-changed": {
          const asked = Number(params.height);
          if (Number.isFinite(asked)) setHeight(Math.min(Math.max(asked, 80), 1200));
          return;
        }
        case "notifications/message":
          note(`log: ${JSON.stringify(params.data ?? params)}`);
          return;
        case "tools/call": {
          const name = String(params.name ?? "");
          note(`calls ${name} ${JSON.stringify(params.arguments ?? {})}`);
          try {
            const answer = await post<CallOutcome & { tool: string }>(
              `/api/apps/${encodeURIComponent(tool.name)}/call`,
              { name, arguments: params.arguments ?? {} },
            );
            note(
              `${name}: ${answer.decision.verdict}${answer.approval ? ` (${answer.approval})` : ""}`,
            );
            reply(toCallToolResult(answer.result));
          } catch (error) {
            note(`${name}: refused`);
            fail(-32000, error instanceof ApiError ? error.message : String(error));
          }
          return;
        }
        case "resources/read":
          try {
            reply(
              await post(`/api/apps/${encodeURIComponent(tool.name)}/read`, { uri: params.uri }),
            );
          } catch (error) {
            fail(-32000, (error as Error).message);
          }
          return;
        default:
          // ui/message, ui/open-link, ui/update-model-context...: not offered by this host.
          fail(-32601, `The studio does not support ${method}.`);
      }
    };
    window.addEventListener("message", onMessage);
    // A new result for a view that is already up.
    if (initialized.current) sendToolData();
    return () => window.removeEventListener("message", onMessage);
  }, [tool.name, outcome]);

  return (
    <div class="app-frame" data-testid="app-frame">
      <iframe
        ref={frame}
        title={`${tool.name} app`}
        src={`/apps/${encodeURIComponent(tool.name)}/view`}
        sandbox="allow-scripts allow-forms"
        referrerpolicy="no-referrer"
        style={{ height: `${height}px` }}
      />
      {refused.length > 0 ? (
        <p class="note" data-testid="app-csp-refused">
          The view's declared network access was narrowed: {refused.join("; ")}
        </p>
      ) : null}
      {log.length > 0 ? (
        <pre class="summary" data-testid="app-log">
          {log.join("\n")}
        </pre>
      ) : null}
    </div>
  );
}

/** Our result as MCP's CallToolResult, the shape the view expects. */
function toCallToolResult(result: ToolResult): Record<string, unknown> {
  const content = result.ok
    ? result.content
    : [...result.content, { type: "text", text: result.error?.message ?? "failed" }];
  return {
    content,
    ...(result.structured !== undefined ? { structuredContent: result.structured } : {}),
    isError: !result.ok,
  };
}
