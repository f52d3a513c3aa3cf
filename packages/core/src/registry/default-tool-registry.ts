import type { Tool } from "../contracts/tool.js";
import type { ToolCall } from "../contracts/tool-call.js";
import type { ToolResult } from "../contracts/tool-result.js";
import type { ExecuteOptions, ToolRegistry, ToolRegistryOptions } from "./tool-registry.js";
import { ToolRunner } from "./tool-runner.js";
import { ToolStore } from "./tool-store.js";

/**
 * The registry the agent uses: the store (tools, names, versions, events, `prepare`) with the
 * runner's `run`. `run` is the runner's own function, so a call enters the runner directly.
 */
export class DefaultToolRegistry extends ToolStore implements ToolRegistry {
  readonly run: ToolRegistry["run"];

  constructor(options: ToolRegistryOptions = {}) {
    super();
    this.run = new ToolRunner(options, (name): Tool | undefined => this.get(name)).run;
  }

  async execute(call: ToolCall, options: ExecuteOptions = {}): Promise<ToolResult> {
    const preparation = this.prepare(call);
    if (preparation.kind !== "ready") return preparation.result;
    return this.run(preparation.prepared, options);
  }
}
