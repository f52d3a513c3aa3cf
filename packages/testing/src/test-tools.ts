import {
  type ContentBlock,
  type Tool,
  type ToolDefinition,
  type ToolResult,
  toolSuccess,
} from "@pseudoclaude/core";
import { StaticToolSource, type ToolExecutionContext } from "@pseudoclaude/core/plugin";

export interface TestToolSpec {
  name: string;
  safety?: ToolDefinition["safety"] | undefined;
  description?: string | undefined;
  source?: string | undefined;
  inputSchema?: Record<string, unknown> | undefined;
  timeoutMs?: number | undefined;
  category?: ToolDefinition["category"] | undefined;
  permissionKey?: ToolDefinition["permissionKey"] | undefined;
  /** Default: echo the arguments as JSON text. */
  run?: (
    args: Record<string, unknown>,
    context: ToolExecutionContext,
  ) => Promise<ToolResult | string> | ToolResult | string;
}

/** A tool defined inline, for tests. Records every call it receives. */
export interface TestTool extends Tool {
  readonly calls: Array<{ args: Record<string, unknown>; context: ToolExecutionContext }>;
}

export function createTestTool(spec: TestToolSpec): TestTool {
  const calls: TestTool["calls"] = [];
  const definition: ToolDefinition = {
    name: spec.name,
    description: spec.description ?? `Test tool ${spec.name}.`,
    inputSchema: spec.inputSchema ?? { type: "object" },
    safety: spec.safety ?? "side_effect",
    source: spec.source ?? "memory",
  };
  if (spec.timeoutMs !== undefined) definition.timeoutMs = spec.timeoutMs;
  if (spec.category) definition.category = spec.category;
  if (spec.permissionKey) definition.permissionKey = spec.permissionKey;
  return {
    definition,
    calls,
    async execute(args, context) {
      calls.push({ args, context });
      const output = spec.run ? await spec.run(args, context) : JSON.stringify(args);
      return typeof output === "string" ? toolSuccess(output) : output;
    },
  };
}

/** An in-memory tool source; push changes with `setTools`, `upsert`, `remove`. */
export class InMemoryToolSource extends StaticToolSource {
  constructor(id = "memory", tools: readonly Tool[] = []) {
    super(
      id,
      tools.map((tool) => adopt(id, tool)),
    );
  }

  override setTools(tools: readonly Tool[]): void {
    super.setTools(tools.map((tool) => adopt(this.id, tool)));
  }

  override upsert(...tools: Tool[]): void {
    super.upsert(...tools.map((tool) => adopt(this.id, tool)));
  }
}

/**
 * The tool as this source's own: tests build tools once and put them in sources of any id,
 * while the registry refuses a tool whose definition names another source. The tool's calls
 * still reach it (and its `calls` record).
 */
function adopt(source: string, tool: Tool): Tool {
  if (tool.definition.source === source) return tool;
  const adopted: Tool = {
    definition: { ...tool.definition, source },
    execute: (args, context) => tool.execute(args, context),
  };
  if (tool.validate) adopted.validate = (args) => tool.validate!(args);
  return adopted;
}

/** Resolve after `ms`, or reject when the signal aborts (a well-behaved slow tool). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

export function text(value: string): ContentBlock {
  return { type: "text", text: value };
}
