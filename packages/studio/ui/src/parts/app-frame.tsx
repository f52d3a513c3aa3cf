import { useEffect, useRef, useState } from "preact/hooks";
import { api } from "../api.js";
import type { Container, DisplayMode, HostedView } from "./app-bridge-host.js";
import type { AppCall } from "./app-call.js";
import type { CallTeller } from "./app-teller.js";

/** The tallest a view may ask to be inline, in CSS pixels. */
const MAX_HEIGHT = 1200;
/** How long a view has to start (send `ui/initialize`) before the page says it did not. */
const START_MS = 15_000;

/**
 * An MCP App's view in a sandboxed frame (scripts only: an opaque origin with no access to
 * the studio, its cookie or its token), hosted through the extension's own library
 * (app-bridge-host.ts). The view is told about `call` as it comes: the model's arguments
 * while they stream, then complete, then the result or the cancellation.
 */
export function AppFrame({ tool, call }: { tool: string; call: AppCall }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const hosted = useRef<HostedView | undefined>(undefined);
  const teller = useRef<CallTeller | undefined>(undefined);
  const latest = useRef(call);
  latest.current = call;
  const [height, setHeight] = useState(240);
  /** `inline` beside the result, or `fullscreen` over the page, as the view asked. */
  const [mode, setMode] = useState<DisplayMode>("inline");
  /** Set once the bridge listens: a view's first message (`ui/initialize`) must find it. */
  const [src, setSrc] = useState<string | undefined>(undefined);
  const [log, setLog] = useState<string[]>([]);
  /** The view asked to be closed; the person may open it again. */
  const [closed, setClosed] = useState(false);
  /** What the view's declared CSP asked for that the studio refused, said beside it. */
  const [refused, setRefused] = useState<string[]>([]);
  /** What went wrong with the view (unreadable, never started, its own errors). */
  const [errors, setErrors] = useState<string[]>([]);
  const showError = (message: string) =>
    setErrors((shown) => (shown.includes(message) ? shown : [...shown.slice(-4), message]));
  /** The view cannot be read: no frame, only why. */
  const [unreadable, setUnreadable] = useState<string | undefined>(undefined);

  useEffect(() => {
    api<{ csp?: { refused?: string[] } }>(`/api/apps/${encodeURIComponent(tool)}`)
      .then((view) => {
        setUnreadable(undefined);
        setRefused(view.csp?.refused ?? []);
      })
      .catch((error: unknown) =>
        setUnreadable(
          `The view could not be read: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
  }, [tool]);

  useEffect(() => {
    const view = frame.current?.contentWindow;
    if (closed || !view) return;
    let ended = false;
    // A view that never says hello is broken (a script error, a wrong page): said, not left blank.
    const starting = window.setTimeout(() => {
      if (!hosted.current?.ready)
        showError(`The view has not started: no ui/initialize in ${START_MS / 1000} s.`);
    }, START_MS);
    // The bridge (and the zod it checks messages with) loads with the first view, not with
    // the page. zod compiles its parsers with `eval`, which the page's CSP refuses: it parses
    // without compiling (and no CSP violation is reported).
    void Promise.all([
      import("@modelcontextprotocol/ext-apps/app-bridge"),
      import("@modelcontextprotocol/client"),
      import("zod"),
      // The host's own side, loaded with the library: the page's first load carries neither.
      import("./app-bridge-host.js"),
      import("./app-teller.js"),
    ]).then(([library, client, zod, { hostView }, { CallTeller }]) => {
      zod.config({ jitless: true });
      if (ended) return;
      const note = (line: string) => setLog((lines) => [...lines.slice(-19), line]);
      hosted.current = hostView(
        library,
        client,
        view,
        {
          tool,
          note,
          error: showError,
          resize: (asked) => setHeight(Math.min(Math.max(asked, 80), MAX_HEIGHT)),
          display: setMode,
          close: () => {
            note("the view asked to close");
            setClosed(true);
          },
          initialized: () => teller.current?.tell(latest.current),
        },
        containerOf(frame.current, "inline"),
      );
      teller.current = new CallTeller(hosted.current.bridge);
      setSrc(`/apps/${encodeURIComponent(tool)}/view`);
    });
    return () => {
      ended = true;
      window.clearTimeout(starting);
      hosted.current?.end();
      hosted.current = undefined;
      teller.current = undefined;
      setSrc(undefined);
    };
  }, [tool, closed, unreadable]);

  // What is new of the call, once the view is up (the teller waits for `initialized`).
  useEffect(() => {
    if (hosted.current?.ready) teller.current?.tell(call);
  }, [call]);

  // The view's place: told again when its mode or its frame's size changes.
  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    const tellPlace = () => hosted.current?.showIn(mode, containerOf(element, mode));
    tellPlace();
    const watcher = new ResizeObserver(tellPlace);
    watcher.observe(element);
    return () => watcher.disconnect();
  }, [mode, src]);

  if (unreadable)
    return (
      <div class="app-frame" data-testid="app-frame" data-mode="unreadable">
        <p class="field-error" data-testid="app-error">
          {unreadable}
        </p>
      </div>
    );
  if (closed)
    return (
      <div class="app-frame" data-testid="app-frame" data-mode="closed">
        <p class="note">The view closed itself.</p>
        <button type="button" onClick={() => setClosed(false)}>
          Open the view again
        </button>
        <Log lines={log} />
      </div>
    );
  return (
    <div class="app-frame" data-testid="app-frame" data-mode={mode}>
      {mode === "fullscreen" ? (
        <button type="button" onClick={() => setMode("inline")}>
          Leave full screen
        </button>
      ) : null}
      <iframe
        ref={frame}
        title={`${tool} app`}
        src={src}
        sandbox="allow-scripts allow-forms"
        referrerpolicy="no-referrer"
        style={mode === "inline" ? { height: `${height}px` } : undefined}
      />
      {errors.map((message) => (
        <p key={message} class="field-error" data-testid="app-error">
          {message}
        </p>
      ))}
      {refused.length > 0 ? (
        <p class="note" data-testid="app-csp-refused">
          The view's declared network access was narrowed: {refused.join("; ")}
        </p>
      ) : null}
      <Log lines={log} />
    </div>
  );
}

function Log({ lines }: { lines: string[] }) {
  return lines.length > 0 ? (
    <pre class="summary" data-testid="app-log">
      {lines.join("\n")}
    </pre>
  ) : null;
}

/** The frame's box as the view is told it: a fixed height full screen, a ceiling inline. */
function containerOf(element: HTMLIFrameElement | null, mode: DisplayMode): Container {
  const width = Math.round(element?.clientWidth ?? 0);
  return mode === "fullscreen"
    ? { width, height: Math.round(element?.clientHeight ?? 0) }
    : { width, maxHeight: MAX_HEIGHT };
}
