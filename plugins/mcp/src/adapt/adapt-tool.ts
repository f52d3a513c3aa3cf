import {
  type Diagnostic,
  type Tool,
  type ToolDefinition,
  type ToolResult,
  toolFailure,
} from "@pseudoclaude/core";
import {
  type ArgumentValidation,
  abortKind,
  compileJsonSchema,
  describeIssues,
  errorMessage,
  type JsonSchema,
  type SchemaIssue,
  type ToolAnnotations,
  type ToolExecutionContext,
  type ToolProgress,
  type ToolTaskUpdate,
  taskHandoffResult,
} from "@pseudoclaude/core/plugin";
import type { McpServerConfig } from "../config/server-config.js";
import {
  type CallOptions,
  McpCallError,
  type RemoteCallResult,
  type RemoteTool,
} from "../mcp-session.js";
import { type ConvertOptions, convertCallResult } from "./convert-result.js";
import type { McpToolErrorCode } from "./result-codes.js";
import { SchemaPool } from "./schema-pool.js";
import { type CompiledValidator, lazyValidator } from "./schema-validator.js";
import { toolAudience } from "./tool-audience.js";
import { toolIcons } from "./tool-icons.js";

/** What a remote tool calls through: the server's connection, which may reconnect. */
export interface RemoteCaller {
  call(
    remoteName: string,
    args: Record<string, unknown>,
    options: CallOptions,
  ): Promise<RemoteCallResult>;
}

export interface AdaptedTool {
  tool: Tool;
  diagnostics: Diagnostic[];
}

/**
 * Wrap a remote tool as a local one: local name for the model and the registry, remote name
 * for the wire, a description even when the server gave none, and a
 * safety class that never trusts the server's hints unless the user said so: a server could
 * mark a destructive tool `readOnlyHint`, and read-only tools are offered in plan mode, run
 * without approval and run concurrently.
 */
export function adaptTool(
  server: McpServerConfig,
  remote: RemoteTool,
  localName: string,
  caller: RemoteCaller,
  /** For what is found after adapting (a schema that fails to compile on first use). */
  report: (diagnostic: Diagnostic) => void = () => {},
): AdaptedTool {
  return adaptWith(new ServerToolHost(server, caller, report), remote, localName, new SchemaPool());
}

/**
 * What every tool of one server shares: its config, its connection (which may reconnect) and
 * where to report. One per listing, not three references per tool.
 */
export class ServerToolHost {
  constructor(
    readonly server: McpServerConfig,
    readonly caller: RemoteCaller,
    readonly report: (diagnostic: Diagnostic) => void,
  ) {}
}

/** `adaptTool` for a server's whole listing: one host, and schemas shared through `schemas`. */
export function adaptWith(
  host: ServerToolHost,
  remote: RemoteTool,
  localName: string,
  schemas: SchemaPool,
): AdaptedTool {
  const { server } = host;
  // A missing or empty schema is repaired where the tool enters the registry, as for every
  // source. The listed schema is this listing's own (the session parsed it) and nothing writes
  // to a definition's schema, so it is not copied, and tools listed with the same one share it.
  const inputSchema = schemas.shared(remote.inputSchema ?? {});
  const description =
    remote.description?.trim() ||
    remote.title?.trim() ||
    `Tool "${remote.name}" from MCP server "${server.name}".`;
  const annotations = remote.annotations as ToolAnnotations | undefined;

  const definition: ToolDefinition = {
    name: localName,
    description,
    inputSchema,
    safety: classifySafety(server, remote.name, annotations),
    source: sourceOf(server),
    meta: { server: server.name, remote_name: remote.name },
    // A server's tools are what makes a tool set wide: search finds them once it is.
    deferLoading: server.deferLoading ?? "auto",
  };
  // The session made this copy of the server's annotations for this listing.
  if (annotations) definition.annotations = annotations;
  if (server.callTimeoutMs !== undefined) definition.timeoutMs = server.callTimeoutMs;
  if (server.taskTimeoutMs !== undefined) definition.taskTimeoutMs = server.taskTimeoutMs;
  if (remote.taskSupport) definition.meta!.task_support = remote.taskSupport;
  if (remote.title) {
    definition.title = remote.title;
    definition.meta!.title = remote.title;
  }
  const icons = toolIcons(remote.icons);
  if (icons) definition.icons = icons;
  if (remote.outputSchema)
    definition.meta!.output_schema = schemas.shared(remote.outputSchema, "output");
  // The server's own `_meta` for the tool (an MCP App's `ui.resourceUri`, …), under a key of
  // its own: it never replaces what we record about the tool.
  if (remote.meta && Object.keys(remote.meta).length > 0)
    definition.meta!.remote_meta = remote.meta;
  const { audience, invalid } = toolAudience(remote.meta);
  if (audience) definition.audience = audience;
  return {
    tool: new RemoteToolAdapter(definition, remote.name, host, remote.taskSupport),
    diagnostics:
      invalid === undefined
        ? []
        : [
            {
              stage: "adapt_tool",
              severity: "warning",
              code: "invalid_visibility",
              source: "mcp",
              item: `${server.name}/${remote.name}`,
              message: `Tool "${remote.name}" on server "${server.name}" declares _meta.ui.visibility ${JSON.stringify(invalid)?.slice(0, 120)}, not a list of "model" and "app"; it is treated as declaring none (the model and its views may call it).`,
            },
          ],
  };
}

/** `mcp:<server>`, one string per server rather than one per tool. */
const sources = new WeakMap<McpServerConfig, string>();
function sourceOf(server: McpServerConfig): string {
  let source = sources.get(server);
  if (source === undefined) {
    source = `mcp:${server.name}`;
    sources.set(server, source);
  }
  return source;
}

/**
 * A remote tool as the registry calls it. A class, not closures: a server may list thousands
 * of tools, and per tool this holds a few references (what is shared lives on the server's
 * config and connection) instead of three closures and their contexts (measured: ~300 bytes a
 * tool less).
 */
class RemoteToolAdapter implements Tool {
  /** Compiled on the first call: see lazyValidator. */
  private validator: CompiledValidator | undefined;
  /** How results are converted; the same for every call, made on the first. */
  private conversion: ConvertOptions | undefined;
  /** The output schema's check, compiled on the first result; null when it cannot compile. */
  private outputCheck: ((value: unknown) => readonly SchemaIssue[]) | null | undefined;

  constructor(
    readonly definition: ToolDefinition,
    private readonly remoteName: string,
    private readonly host: ServerToolHost,
    /** Whether the server runs the tool as a task (asked for where it can). */
    private readonly taskSupport: RemoteTool["taskSupport"],
  ) {}

  validate(args: Record<string, unknown>): ArgumentValidation {
    this.validator ??= lazyValidator(this.definition.inputSchema, (error) =>
      this.schemaNotCompiled("Input", error, "arguments are only checked to be an object"),
    );
    return this.validator(args);
  }

  /** A schema of the tool's that cannot compile, said once (the call goes on without it). */
  private schemaNotCompiled(which: "Input" | "Output", error: string, consequence: string): void {
    this.host.report({
      stage: "adapt_tool",
      severity: "warning",
      code: "schema_not_compiled",
      source: "mcp",
      item: `${this.host.server.name}/${this.remoteName}`,
      message: `${which} schema of "${this.remoteName}" on server "${this.host.server.name}" could not be compiled (${error}); ${consequence}.`,
    });
  }

  /**
   * What is wrong with a result's `structuredContent` by the tool's `outputSchema` (the spec: a
   * server that declares one MUST return conforming structured results), or undefined when
   * nothing is: no schema, a conforming value, or a schema that cannot compile (said once).
   */
  private outputIssues(result: RemoteCallResult): readonly SchemaIssue[] | undefined {
    const schema = this.definition.meta?.output_schema as JsonSchema | undefined;
    if (!schema) return undefined;
    if (this.outputCheck === undefined) {
      try {
        const compiled = compileJsonSchema(schema, {
          allErrors: true,
          root: "(structuredContent)",
        });
        this.outputCheck = (value) => compiled.issues(value);
      } catch (error) {
        this.outputCheck = null;
        this.schemaNotCompiled(
          "Output",
          errorMessage(error),
          "its results are not checked against it",
        );
      }
    }
    if (!this.outputCheck) return undefined;
    if (result.structuredContent === undefined)
      return [
        {
          path: "(structuredContent)",
          message: "is missing, and the tool declares an outputSchema",
        },
      ];
    const issues = this.outputCheck(result.structuredContent);
    return issues.length > 0 ? issues : undefined;
  }

  async execute(args: Record<string, unknown>, context: ToolExecutionContext) {
    const { remoteName, host } = this;
    const { server } = host;
    const options = new ContextCallOptions(context, this.taskSupport);
    try {
      const result = await host.caller.call(remoteName, args, options);
      // A durable run's first step: the task is recorded now, and waited for in a step of its own.
      if (result.handoff) return taskHandoffResult(result.handoff.task, result.handoff.reference);
      this.conversion ??= {
        server: server.name,
        remoteName,
        maxOutputChars: server.maxOutputChars,
      };
      const converted = convertCallResult(result, this.conversion);
      if (options.taskId) converted.metadata.task_id = options.taskId;
      const issues = result.isError ? undefined : this.outputIssues(result);
      return issues ? outputInvalid(converted, issues, result.structuredContent) : converted;
    } catch (error) {
      const reason = context.signal.aborted
        ? (abortKind(context.signal) ?? "cancelled")
        : error instanceof McpCallError
          ? error.reason
          : "transport";
      const { taskId } = options;
      const call = taskId
        ? `Task ${taskId} of "${remoteName}" on MCP server "${server.name}"`
        : `Call to "${remoteName}" on MCP server "${server.name}"`;
      const ended =
        reason !== "timeout"
          ? "was cancelled"
          : taskId
            ? `timed out after ${server.taskTimeoutMs} ms (its task_timeout_ms)`
            : `timed out after ${context.timeoutMs} ms`;
      const message = context.signal.aborted
        ? `${call} ${ended}; the server was sent ${taskId ? "tasks/cancel" : "notifications/cancelled"}.`
        : `${call} failed (${reason}): ${errorMessage(error)}`;
      return toolFailure("mcp_call_error" satisfies McpToolErrorCode, message, {
        metadata: {
          server: server.name,
          remote_tool: remoteName,
          reason,
          ...(taskId ? { task_id: taskId } : {}),
        },
      });
    }
  }
}

/**
 * A result whose `structuredContent` breaks the tool's `outputSchema`: a failure that says how,
 * with the server's content after it and the value kept in metadata (not as the result's
 * structured value, which code reads as conforming).
 */
function outputInvalid(
  converted: ToolResult,
  issues: readonly SchemaIssue[],
  structured: unknown,
): ToolResult {
  const { server, remote_tool: tool } = converted.metadata as {
    server: string;
    remote_tool: string;
  };
  const message = `MCP tool "${tool}" on server "${server}" returned structuredContent that does not match its outputSchema: ${describeIssues(issues)}.`;
  return toolFailure("mcp_output_invalid" satisfies McpToolErrorCode, message, {
    content: [{ type: "text", text: message }, ...converted.content],
    metadata: {
      ...converted.metadata,
      issues: [...issues],
      ...(structured !== undefined ? { structured_content: structured } : {}),
    },
  });
}

/**
 * A call's options read from its context when a path needs them: one object a call instead of
 * a literal with a getter, two closures and two spreads. The signal is still made only if it
 * is read (making one is the dearest part of a call).
 */
class ContextCallOptions implements CallOptions {
  constructor(
    private readonly context: ToolExecutionContext,
    readonly taskSupport: RemoteTool["taskSupport"],
  ) {}

  /** The task the call became, once it did. */
  taskId: string | undefined;

  reportTask(update: ToolTaskUpdate): void {
    this.taskId = update.taskId;
    this.context.reportTask(update);
  }

  get taskMode() {
    return this.context.taskMode;
  }

  get requestTimeoutMs() {
    return this.context.timeoutMs;
  }

  get signal(): AbortSignal {
    return this.context.signal;
  }

  onAbort(listener: (reason: unknown) => void) {
    return this.context.onAbort(listener);
  }

  get trace() {
    return this.context.trace;
  }

  get onProgress(): ((progress: ToolProgress) => void) | undefined {
    return this.context.progressWanted ? this.context.reportProgress : undefined;
  }
}

/**
 * `side_effect` unless the user relaxed it: the whole server declared read-only, this tool
 * listed in `read_only_tools`, or `trust_annotations` on and the server says read-only.
 */
export function classifySafety(
  server: McpServerConfig,
  remoteName: string,
  annotations: ToolAnnotations | undefined,
): ToolDefinition["safety"] {
  if (server.allReadOnly || server.readOnlyTools.includes(remoteName)) return "read_only";
  if (server.trustAnnotations && annotations?.readOnlyHint === true) return "read_only";
  return "side_effect";
}
