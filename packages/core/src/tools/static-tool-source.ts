import { EventEmitter } from "eventemitter3";
import type { Tool } from "../contracts/tool.js";
import type {
  ToolChange,
  ToolSource,
  ToolSourceStartContext,
  ToolSourceState,
  ToolSourceStatus,
} from "../contracts/tool-source.js";
import { type Disposable, toDisposable } from "../util/disposable.js";

/**
 * A ready-made ToolSource for plugins whose tools are known in code (built-ins, an in-memory
 * test source). `setTools`, `upsert` and `remove` push changes to the registry at any time.
 */
export class StaticToolSource implements ToolSource {
  private readonly emitter = new EventEmitter<{ change: [ToolChange] }>();
  private readonly current = new Map<string, Tool>();
  private state: ToolSourceState = "idle";

  constructor(
    readonly id: string,
    tools: readonly Tool[] = [],
    private readonly hooks: {
      start?: (context: ToolSourceStartContext) => Promise<void> | void;
      close?: () => Promise<void> | void;
    } = {},
  ) {
    for (const tool of tools) this.current.set(tool.definition.name, tool);
  }

  async start(context: ToolSourceStartContext): Promise<void> {
    this.state = "starting";
    try {
      await this.hooks.start?.(context);
      this.state = "ready";
    } catch (error) {
      this.state = "failed";
      throw error;
    }
  }

  tools(): readonly Tool[] {
    return [...this.current.values()];
  }

  onDidChange(listener: (change: ToolChange) => void): Disposable {
    this.emitter.on("change", listener);
    return toDisposable(() => this.emitter.off("change", listener));
  }

  status(): ToolSourceStatus {
    return { state: this.state, stats: { tools: this.current.size } };
  }

  /** Replace the whole tool set. */
  setTools(tools: readonly Tool[]): void {
    this.current.clear();
    for (const tool of tools) this.current.set(tool.definition.name, tool);
    this.emitter.emit("change", { kind: "full", tools: this.tools() });
  }

  upsert(...tools: Tool[]): void {
    for (const tool of tools) this.current.set(tool.definition.name, tool);
    this.emitter.emit("change", { kind: "delta", upsert: tools });
  }

  remove(...names: string[]): void {
    for (const name of names) this.current.delete(name);
    this.emitter.emit("change", { kind: "delta", remove: names });
  }

  async close(): Promise<void> {
    if (this.state === "closed") return;
    this.state = "closed";
    this.emitter.removeAllListeners();
    await this.hooks.close?.();
  }
}
