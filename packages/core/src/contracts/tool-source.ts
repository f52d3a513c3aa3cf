import type { Disposable } from "../util/disposable.js";
import type { Diagnostic } from "./diagnostic.js";
import type { Tool } from "./tool.js";

/**
 * A change a source pushes: `full` replaces everything the source has in the registry (the
 * registry computes the difference); `delta` adds/replaces and removes by name.
 */
export type ToolChange =
  | { kind: "full"; tools: readonly Tool[] }
  | {
      kind: "delta";
      upsert?: readonly Tool[] | undefined;
      remove?: readonly string[] | undefined;
    };

/**
 * `needs-approval`: the source would run something the workspace's own files ask for, and the
 * user has not approved it; nothing was started.
 */
export type ToolSourceState =
  | "idle"
  | "starting"
  | "ready"
  | "degraded"
  | "failed"
  | "needs-approval"
  /** The source needs a person to log in (an OAuth server) before it can start. */
  | "needs-auth"
  | "closed";

/**
 * Counters a source reports. MCP reports Configured, Connected, Discovered, Adapted and
 * Registered per server; other sources use what fits.
 */
export interface ToolSourceStats {
  [counter: string]: number;
}

export interface ToolSourceStatus {
  state: ToolSourceState;
  stats: ToolSourceStats;
  /** Per-part details, e.g. one entry per MCP server. */
  parts?:
    | Array<{
        name: string;
        state: string;
        stats?: ToolSourceStats | undefined;
        message?: string | undefined;
        /** The protocol revision the part speaks, when it is a connection (an MCP server). */
        protocolVersion?: string | undefined;
      }>
    | undefined;
}

/** What the host hands a source when starting it. */
export interface ToolSourceStartContext {
  workspace: string;
  /** Aborted when the agent is closed during start-up. */
  signal: AbortSignal;
  report(diagnostic: Diagnostic): void;
  /**
   * How many of this source's tools the registry holds now. A tool the registry refused (a
   * name another source already has) is not counted, so a status built on it says what is
   * really callable.
   */
  registeredCount(): number;
}

/**
 * The plugin contract for anything that provides tools: MCP, built-ins, Skills, your own.
 * Sources push, the registry owns state: emit changes through `onDidChange` at any time, and
 * the host applies them to the registry.
 */
export interface ToolSource {
  /** Unique id, shown as `source` of each tool and in diagnostics. */
  readonly id: string;
  /** Connect, discover, load. Errors reject; the host turns them into diagnostics. */
  start(context: ToolSourceStartContext): Promise<void>;
  /** The tools the source currently offers. */
  tools(): readonly Tool[];
  /** Subscribe to tool changes after start. */
  onDidChange(listener: (change: ToolChange) => void): Disposable;
  status(): ToolSourceStatus;
  /**
   * While a change the source heard of is still being fetched (an MCP server's `list_changed`
   * being listed again), a promise that resolves once it has been pushed; undefined when the
   * tools are current. The loop waits for it (a few seconds at most) before each model request,
   * so the model sees a tool a call just added. Optional: a source that changes only by its own
   * pushes leaves it out.
   */
  whenCurrent?(): Promise<void> | undefined;
  /** Release everything (child processes, sockets). Must be safe to call twice. */
  close(): Promise<void>;
}

/** A tool source as the agent reports it: its id and its status. */
export interface SourceReport {
  id: string;
  status: ToolSourceStatus;
}
