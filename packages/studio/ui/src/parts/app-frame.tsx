import type { AppBridge } from "@modelcontextprotocol/ext-apps/app-bridge";

/** What a view's `resources/read` is answered (the server's answer, relayed as it is). */
type ReadResourceResult = Awaited<ReturnType<NonNullable<AppBridge["onreadresource"]>>>;

import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError, api, post } from "../api.js";
import type { CallOutcome, ToolInfo, ToolResult } from "../types.js";

type DisplayMode = "inline" | "fullscreen";
/** The display modes this host offers a view. */
const DISPLAY_MODES: readonly DisplayMode[] = ["inline", "fullscreen"];

/** Who the studio is to a view (MCP Apps `hostInfo`). */
const HOST_INFO = { name: "pseudoclaude-studio", version: "0.1.0" };
/** The tallest a view may ask to be inline, in CSS pixels. */
const MAX_HEIGHT = 1200;

/**
 * An MCP App's view in a sandboxed frame (scripts only: an opaque origin with no access to
 * the studio, its cookie or its token), with the host side of the MCP Apps bridge from the
 * extension's own library (`@modelcontextprotocol/ext-apps`' AppBridge over postMessage): the
 * handshake, the tool's input and result, size changes and logs. The view may call its own
 * server's tools (as the view's: through the studio's policy, and never a tool its server
 * keeps for the model) and read its server's resources, open an http(s) link once the person
 * agrees to the URL it shows, send the model a message the person agreed to (`ui/message`, the
 * conversation's next prompt) and give the model context for its next turn
 * (`ui/update-model-context`). What this host does not offer yet is answered "method not
 * found" by the library.
 */
export function AppFrame({
  tool,
  outcome,
  args,
}: {
  tool: ToolInfo;
  outcome: CallOutcome;
  /** What the tool was called with: the view's `tool-input`. */
  args: Record<string, unknown>;
}) {
  const frame = useRef<HTMLIFrameElement>(null);
  const bridge = useRef<AppBridge | undefined>(undefined);
  /** The page's way back from fullscreen (the view is told too). */
  const leaveFullscreen = useRef<() => void>(() => {});
  const initialized = useRef(false);
  const latest = useRef({ outcome, args });
  latest.current = { outcome, args };
  const [height, setHeight] = useState(240);
  /** `inline` beside the result, or `fullscreen` over the page, as the view asked. */
  const [mode, setMode] = useState<DisplayMode>("inline");
  /** Set once the bridge listens: a view's first message (`ui/initialize`) must find it. */
  const [src, setSrc] = useState<string | undefined>(undefined);
  const [log, setLog] = useState<string[]>([]);
  /** What the view's declared CSP asked for that the studio refused, said beside it. */
  const [refused, setRefused] = useState<string[]>([]);

  useEffect(() => {
    api<{ csp?: { refused?: string[] } }>(`/api/apps/${encodeURIComponent(tool.name)}`)
      .then((view) => setRefused(view.csp?.refused ?? []))
      .catch(() => setRefused([]));
  }, [tool.name]);

  useEffect(() => {
    const view = frame.current?.contentWindow;
    if (!view) return;
    let ended = false;
    let end: (() => void) | undefined;
    // The bridge (and the zod it checks messages with) loads with the first view, not with
    // the page. zod compiles its parsers with `eval`, which the page's CSP refuses: it parses
    // without compiling (and no CSP violation is reported).
    void Promise.all([import("@modelcontextprotocol/ext-apps/app-bridge"), import("zod")]).then(
      ([library, zod]) => {
        zod.config({ jitless: true });
        if (ended) return;
        end = bridgeTo(library, view);
        setSrc(`/apps/${encodeURIComponent(tool.name)}/view`);
      },
    );
    return () => {
      ended = true;
      end?.();
      setSrc(undefined);
    };
  }, [tool.name]);

  /** Connect the library's host bridge to `view`; returns how to end it. */
  function bridgeTo(
    { AppBridge, PostMessageTransport }: typeof import("@modelcontextprotocol/ext-apps/app-bridge"),
    view: Window,
  ): () => void {
    const note = (line: string) => setLog((lines) => [...lines.slice(-19), line]);
    const context = {
      theme: "light" as const,
      platform: "web" as const,
      displayMode: "inline" as DisplayMode,
      availableDisplayModes: [...DISPLAY_MODES],
      locale: navigator.language,
    };
    const host = new AppBridge(
      null,
      HOST_INFO,
      {
        serverTools: {},
        serverResources: {},
        logging: {},
        openLinks: {},
        message: { text: {} },
        updateModelContext: { text: {} },
      },
      { hostContext: context },
    );
    bridge.current = host;
    initialized.current = false;
    const sendToolData = () => {
      const { outcome: current, args: input } = latest.current;
      void host.sendToolInput({ arguments: input });
      void host.sendToolResult(toCallToolResult(current.result));
    };
    host.addEventListener("initialized", () => {
      initialized.current = true;
      sendToolData();
    });
    host.addEventListener("sizechange", ({ height: asked }) => {
      if (typeof asked === "number" && Number.isFinite(asked))
        setHeight(Math.min(Math.max(asked, 80), MAX_HEIGHT));
    });
    host.addEventListener("loggingmessage", (params) =>
      note(`log: ${JSON.stringify(params.data)}`),
    );
    host.oncalltool = async (params) => {
      const name = params.name;
      note(`calls ${name} ${JSON.stringify(params.arguments ?? {})}`);
      try {
        const answer = await post<CallOutcome & { tool: string }>(
          `/api/apps/${encodeURIComponent(tool.name)}/call`,
          { name, arguments: params.arguments ?? {} },
        );
        note(
          `${name}: ${answer.decision.verdict}${answer.approval ? ` (${answer.approval})` : ""}`,
        );
        return toCallToolResult(answer.result);
      } catch (error) {
        note(`${name}: refused`);
        throw new Error(error instanceof ApiError ? error.message : String(error));
      }
    };
    host.onreadresource = async (params) =>
      post<ReadResourceResult>(`/api/apps/${encodeURIComponent(tool.name)}/read`, {
        uri: params.uri,
      });
    host.onopenlink = async ({ url }) => {
      if (!/^https?:\/\//i.test(url)) {
        note(`open-link refused: ${url}`);
        return { isError: true };
      }
      // The person sees the whole URL before it opens; the view cannot open one by itself.
      if (!window.confirm(`${tool.name}'s view asks to open:\n\n${url}`)) return { isError: true };
      window.open(url, "_blank", "noopener,noreferrer");
      note(`opened ${url}`);
      return {};
    };
    host.onmessage = async (params) => {
      const text = params.content
        .map((block) => (block.type === "text" ? block.text : ""))
        .join("\n")
        .trim();
      // The view speaks for the person only once the person has read it and agreed.
      if (!text || !window.confirm(`${tool.name}'s view asks to send to the model:\n\n${text}`))
        return { isError: true };
      try {
        await post(`/api/apps/${encodeURIComponent(tool.name)}/message`, params);
        note("message sent to the model");
        return {};
      } catch (error) {
        note(`message refused: ${error instanceof ApiError ? error.message : String(error)}`);
        return { isError: true };
      }
    };
    const show = (next: DisplayMode) => {
      setMode(next);
      host.setHostContext({ ...context, displayMode: next });
    };
    leaveFullscreen.current = () => show("inline");
    // The mode the view gets is the one in effect: picture-in-picture is not offered here.
    host.onrequestdisplaymode = async ({ mode: asked }) => {
      const next: DisplayMode = asked === "fullscreen" ? "fullscreen" : "inline";
      show(next);
      return { mode: next };
    };
    host.onupdatemodelcontext = async (params) => {
      await post(`/api/apps/${encodeURIComponent(tool.name)}/context`, params);
      note("context for the next turn updated");
      return {};
    };
    void host.connect(new PostMessageTransport(view, view));
    return () => {
      bridge.current = undefined;
      // The view is told it goes, then the bridge ends.
      const ending = initialized.current
        ? host.teardownResource({}).catch(() => undefined)
        : Promise.resolve();
      void ending.finally(() => host.close());
    };
  }

  // A new result for a view that is already up.
  useEffect(() => {
    const host = bridge.current;
    if (!host || !initialized.current) return;
    void host.sendToolInput({ arguments: args });
    void host.sendToolResult(toCallToolResult(outcome.result));
  }, [outcome, args]);

  return (
    <div class="app-frame" data-testid="app-frame" data-mode={mode}>
      {mode === "fullscreen" ? (
        <button type="button" onClick={() => leaveFullscreen.current()}>
          Leave full screen
        </button>
      ) : null}
      <iframe
        ref={frame}
        title={`${tool.name} app`}
        src={src}
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
function toCallToolResult(result: ToolResult) {
  const content = result.ok
    ? result.content
    : [...result.content, { type: "text", text: result.error?.message ?? "failed" }];
  return {
    content,
    ...(result.structured !== undefined
      ? { structuredContent: result.structured as Record<string, unknown> }
      : {}),
    isError: !result.ok,
  } as Parameters<AppBridge["sendToolResult"]>[0];
}
