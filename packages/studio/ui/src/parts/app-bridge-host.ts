import type { AppBridge } from "@modelcontextprotocol/ext-apps/app-bridge";
import { ApiError, post } from "../api.js";
import type { CallOutcome } from "../types.js";
import { askedFiles, describeFiles, saveFile } from "./app-downloads.js";
import { toCallToolResult } from "./app-teller.js";

/** What a view's `resources/read` is answered (the server's answer, relayed as it is). */
type ReadResourceResult = Awaited<ReturnType<NonNullable<AppBridge["onreadresource"]>>>;

/** The extension's host library, loaded with the first view. */
type Library = typeof import("@modelcontextprotocol/ext-apps/app-bridge");
/** The MCP client's error type, for refusals with the code they deserve. */
type ProtocolErrors = Pick<typeof import("@modelcontextprotocol/client"), "ProtocolError">;

export type DisplayMode = "inline" | "fullscreen";
/** The display modes this host offers a view. */
const DISPLAY_MODES: readonly DisplayMode[] = ["inline", "fullscreen"];
/** Who the studio is to a view (MCP Apps `hostInfo`). */
const HOST_INFO = { name: "pseudoclaude-studio", version: "0.1.0" };
/** The log levels a view's message is shown as an error at. */
const SEVERE = new Set(["error", "critical", "alert", "emergency"]);
/** JSON-RPC "invalid request": what a view asking for something not offered is told. */
const INVALID_REQUEST = -32600;

/** What the page around a view does for the bridge. */
export interface ViewPage {
  /** The tool whose view this is (the studio's name for it). */
  tool: string;
  /** A line for the view's log under the frame. */
  note(line: string): void;
  /** Something went wrong in or with the view: said in red beside it. */
  error(message: string): void;
  /** The height the view asked for. */
  resize(height: number): void;
  /** Show the view inline or over the whole page. */
  display(mode: DisplayMode): void;
  /** The view asked to be closed (`ui/notifications/request-teardown`). */
  close(): void;
  /** The view said it is initialized: tell it about its call. */
  initialized(): void;
}

/** The container a view lives in, as the extension's host context describes it. */
export type Container = { width: number } & ({ height: number } | { maxHeight: number });

/** One view's bridge, what the page tells it as the view's place changes, and its end. */
export interface HostedView {
  bridge: AppBridge;
  /** The view said it is initialized: from then on it may be told of its call. */
  readonly ready: boolean;
  /** The view's display mode or container changed (sent as host context, changed keys only). */
  showIn(mode: DisplayMode, container: Container): void;
  end(): void;
}

/**
 * The host side of one view, on the extension's own AppBridge: every request a view may make
 * is answered here, those that act for the person only once the person agreed to what the
 * view asked.
 */
export function hostView(
  { AppBridge, PostMessageTransport }: Library,
  { ProtocolError }: ProtocolErrors,
  view: Window,
  page: ViewPage,
  container: Container,
): HostedView {
  const api = (path: string) => `/api/apps/${encodeURIComponent(page.tool)}/${path}`;
  let context = {
    theme: "light" as const,
    platform: "web" as const,
    displayMode: "inline" as DisplayMode,
    availableDisplayModes: [...DISPLAY_MODES],
    containerDimensions: container,
    locale: navigator.language,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    userAgent: navigator.userAgent,
  };
  const host = new AppBridge(
    null,
    HOST_INFO,
    {
      serverTools: {},
      serverResources: {},
      logging: {},
      openLinks: {},
      downloadFile: {},
      message: { text: {} },
      updateModelContext: { text: {}, structuredContent: {} },
    },
    { hostContext: context },
  );
  let initialized = false;
  host.addEventListener("initialized", () => {
    initialized = true;
    page.initialized();
  });
  host.addEventListener("sizechange", ({ height }) => {
    if (typeof height === "number" && Number.isFinite(height)) page.resize(height);
  });
  host.addEventListener("loggingmessage", (params) => {
    const line = `log: ${JSON.stringify(params.data)}`;
    page.note(line);
    if (SEVERE.has(params.level)) page.error(`The view reported ${params.level}: ${params.data}`);
  });
  // A message the bridge could not take (not JSON-RPC, or invalid for its method).
  host.onerror = (error) => page.error(`The view sent what the host cannot read: ${error.message}`);
  host.addEventListener("requestteardown", () => page.close());
  host.oncalltool = async (params) => {
    const name = params.name;
    page.note(`calls ${name} ${JSON.stringify(params.arguments ?? {})}`);
    try {
      const answer = await post<CallOutcome & { tool: string }>(api("call"), {
        name,
        arguments: params.arguments ?? {},
      });
      page.note(
        `${name}: ${answer.decision.verdict}${answer.approval ? ` (${answer.approval})` : ""}`,
      );
      return toCallToolResult(answer.result);
    } catch (error) {
      page.note(`${name}: refused`);
      throw new Error(error instanceof ApiError ? error.message : String(error));
    }
  };
  const read = (uri: string) => post<ReadResourceResult>(api("read"), { uri });
  host.onreadresource = async ({ uri }) => read(uri);
  host.onopenlink = async ({ url }) => {
    if (!/^https?:\/\//i.test(url)) {
      page.note(`open-link refused: ${url}`);
      return { isError: true };
    }
    // The person sees the whole URL before it opens; the view cannot open one by itself.
    if (!window.confirm(`${page.tool}'s view asks to open:\n\n${url}`)) return { isError: true };
    window.open(url, "_blank", "noopener,noreferrer");
    page.note(`opened ${url}`);
    return {};
  };
  host.ondownloadfile = async ({ contents }) => {
    try {
      const files = await askedFiles(contents, async (uri) => (await read(uri)).contents);
      // Every name, type and size (or address) is shown before anything is saved.
      if (!window.confirm(`${page.tool}'s view asks to save:\n\n${describeFiles(files)}`))
        return { isError: true };
      for (const file of files) saveFile(file);
      page.note(`saved ${files.map((file) => file.name).join(", ")}`);
      return {};
    } catch (error) {
      page.note(`download refused: ${error instanceof Error ? error.message : String(error)}`);
      return { isError: true };
    }
  };
  host.onmessage = async (params) => {
    const text = params.content
      .map((block) => (block.type === "text" ? block.text : ""))
      .join("\n")
      .trim();
    // The view speaks for the person only once the person has read it and agreed.
    if (!text || !window.confirm(`${page.tool}'s view asks to send to the model:\n\n${text}`))
      return { isError: true };
    try {
      await post(api("message"), params);
      page.note("message sent to the model");
      return {};
    } catch (error) {
      page.note(`message refused: ${error instanceof ApiError ? error.message : String(error)}`);
      return { isError: true };
    }
  };
  // Sampling is not offered (no `sampling` capability): a view that asks anyway is told why
  // and what it can do instead, rather than a bare "method not found".
  host.oncreatesamplingmessage = async () => {
    page.note("sampling refused");
    throw new ProtocolError(
      INVALID_REQUEST,
      "The studio does not let a view ask the model directly (sampling); send the person's message with ui/message instead.",
    );
  };
  // The mode the view gets is the one in effect: picture-in-picture is not offered here.
  host.onrequestdisplaymode = async ({ mode: asked }) => {
    const mode: DisplayMode = asked === "fullscreen" ? "fullscreen" : "inline";
    page.display(mode);
    return { mode };
  };
  host.onupdatemodelcontext = async (params) => {
    await post(api("context"), params);
    page.note("context for the next turn updated");
    return {};
  };
  void host.connect(new PostMessageTransport(view, view));
  const update = (change: Partial<typeof context>) => {
    context = { ...context, ...change };
    host.setHostContext(context);
  };
  return {
    bridge: host,
    get ready() {
      return initialized;
    },
    showIn: (displayMode, containerDimensions) => update({ displayMode, containerDimensions }),
    end() {
      // The view is told it goes (once it is up), then the bridge ends.
      const ending = initialized
        ? host.teardownResource({}).catch(() => undefined)
        : Promise.resolve();
      void ending.finally(() => host.close());
    },
  };
}
