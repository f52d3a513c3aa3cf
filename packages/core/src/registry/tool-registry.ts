import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { Tool } from "../tools/tool.js";
import type { ToolCall, ToolProgress } from "../tools/tool-call.js";
import type { ToolDefinition } from "../tools/tool-definition.js";
import type { ToolResult } from "../tools/tool-result.js";
import type { ToolChange } from "../tools/tool-source.js";

/** Typed events of the registry. `changed` summarises one applied change. */
export interface ToolRegistryEvents {
  "tool-added": [{ definition: ToolDefinition }];
  "tool-removed": [{ definition: ToolDefinition }];
  "tool-replaced": [{ previous: ToolDefinition; definition: ToolDefinition }];
  changed: [ToolRegistryChange];
  diagnostic: [Diagnostic];
}

export interface ToolRegistryChange {
  source: string;
  added: string[];
  removed: string[];
  replaced: string[];
  /** Incremented on every applied change; caches compare it. */
  version: number;
}

export interface ApplyChangeOutcome extends ToolRegistryChange {
  /** Tools that were refused (empty or duplicate names), one diagnostic each. */
  rejected: Diagnostic[];
}

export interface ExecuteOptions {
  /** Cancels the call (the agent's run signal, a CLI Ctrl-C). */
  signal?: AbortSignal;
  /** Per-call timeout: highest precedence, see `resolveEffectiveTimeout`. */
  timeoutMs?: number;
  onProgress?: (progress: ToolProgress) => void;
  /** Arguments were already checked with `checkArguments` for this call: skip a second check. */
  argumentsChecked?: boolean;
}

/** The one place tools live, whatever their source. */
export interface ToolRegistry {
  /** Monotonic version, bumped by every change. */
  readonly version: number;
  /**
   * Apply a source's change. Bad items are rejected with a diagnostic (and a `diagnostic`
   * event); the rest is applied. Never throws for bad tools.
   */
  applyChange(sourceId: string, change: ToolChange): ApplyChangeOutcome;
  /** Remove every tool of a source (when it closes). */
  removeSource(sourceId: string): ApplyChangeOutcome;
  get(name: string): Tool | undefined;
  list(): readonly Tool[];
  definitions(): readonly ToolDefinition[];
  /**
   * The argument checks `execute` does (a JSON object, then the tool's validator), without
   * running anything: `undefined` when fine, else the `invalid_arguments` (or `unknown_tool`)
   * result. Lets the agent avoid asking a person to approve a call that cannot run.
   */
  checkArguments(call: ToolCall): ToolResult | undefined;
  /** Run a call: routing, argument checks, the one effective timeout, abort, metadata. */
  execute(call: ToolCall, options?: ExecuteOptions): Promise<ToolResult>;
  on<E extends keyof ToolRegistryEvents>(
    event: E,
    listener: (...args: ToolRegistryEvents[E]) => void,
  ): this;
  off<E extends keyof ToolRegistryEvents>(
    event: E,
    listener: (...args: ToolRegistryEvents[E]) => void,
  ): this;
}

/** DI token for {@link ToolRegistry}. */
export const ToolRegistry = Symbol.for("@pseudoclaude/core:ToolRegistry");

/** Registry-wide settings. */
export interface ToolRegistryOptions {
  /** Timeout when neither the call nor the tool sets one. Default 120 000 ms. */
  defaultTimeoutMs?: number;
  /**
   * After a timeout or cancel aborts the signal, how long to wait for the tool to finish on
   * its own (so it can report e.g. `mcp_call_error` with its reason) before giving up on it.
   */
  abortGraceMs?: number;
  workspace?: string;
}

/** DI token for {@link ToolRegistryOptions}. */
export const ToolRegistryOptions = Symbol.for("@pseudoclaude/core:ToolRegistryOptions");
