import { type Tool, type ToolSource } from "@pseudoclaude/core";
import {
  type Disposable,
  type ToolChange,
  type ToolSourceStartContext,
  type ToolSourceStatus,
  toDisposable,
} from "@pseudoclaude/core/plugin";
import { EventEmitter } from "eventemitter3";
import type { McpServerConfig } from "./config/server-config.js";
import type { ServerConnection } from "./manager/server-connection.js";

/**
 * One MCP server as a ToolSource (`mcp:<server>`). Each server is its own source so the host
 * starts them all at once and one server's failure is reported for that server only.
 */
export class McpServerSource implements ToolSource {
  readonly id: string;
  private readonly emitter = new EventEmitter<{ change: [ToolChange] }>();
  private registeredCount: () => number = () => 0;

  constructor(
    readonly connection: ServerConnection,
    private readonly strict: boolean,
  ) {
    this.id = `mcp:${connection.name}`;
    connection.on("tools", (tools) => this.emitter.emit("change", { kind: "full", tools }));
  }

  async start(context: ToolSourceStartContext): Promise<void> {
    this.registeredCount = context.registeredCount;
    try {
      await this.connection.start(context.signal);
    } catch (error) {
      // The connection reported why (stage connect or list_tools); only strict mode escalates.
      if (this.strict) throw error;
    }
  }

  whenCurrent(): Promise<void> | undefined {
    return this.connection.whenCurrent();
  }

  tools(): readonly Tool[] {
    return this.connection.tools;
  }

  onDidChange(listener: (change: ToolChange) => void): Disposable {
    this.emitter.on("change", listener);
    return toDisposable(() => this.emitter.off("change", listener));
  }

  status(): ToolSourceStatus {
    const { connection } = this;
    // Registered is what the registry really holds of ours: a tool that lost a name collision
    // was adapted but is not callable, and the count must say so.
    const stats = { ...connection.stats, registered: this.registeredCount() };
    const state =
      connection.state === "ready"
        ? "ready"
        : connection.state === "disconnected"
          ? "degraded"
          : connection.state === "connecting"
            ? "starting"
            : connection.state;
    const part: NonNullable<ToolSourceStatus["parts"]>[number] = {
      name: connection.name,
      state: connection.state,
      stats,
    };
    if (connection.lastError && connection.state !== "ready") part.message = connection.lastError;
    if (connection.state === "needs-approval")
      part.message = needsApprovalMessage(connection.config);
    const session = connection.activeSession;
    if (session?.protocolVersion) part.protocolVersion = session.protocolVersion;
    if (session?.serverInfo)
      part.message ??= `${session.serverInfo.name} ${session.serverInfo.version} (protocol ${session.protocolVersion ?? "?"}, ${connection.config.transport})`;
    return { state, stats, parts: [part] };
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
    await this.connection.close();
  }
}

/** What `tools` shows for a server waiting for approval: what would run, and how to allow it. */
export function needsApprovalMessage(server: McpServerConfig): string {
  return `not started: it comes with the workspace (${server.approval?.summary ?? server.name}). Approve it with: pseudoclaude mcp approve ${server.name}`;
}
