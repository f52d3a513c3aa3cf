import { type Diagnostic, type Tool, type ToolDefinition, toolFailure } from "@pseudoclaude/core";
import {
  abortKind,
  errorMessage,
  type ToolAnnotations,
  type ToolProgress,
} from "@pseudoclaude/core/plugin";
import type { McpServerConfig } from "../config/server-config.js";
import {
  type CallOptions,
  McpCallError,
  type RemoteCallResult,
  type RemoteTool,
} from "../session/mcp-session.js";
import { convertCallResult } from "./convert-result.js";
import type { McpToolErrorCode } from "./result-codes.js";
import { lazyValidator } from "./schema-validator.js";

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
  const diagnostics: Diagnostic[] = [];
  const originalSchema =
    remote.inputSchema && Object.keys(remote.inputSchema).length > 0
      ? remote.inputSchema
      : undefined;
  // A missing or empty schema is repaired where the tool enters the registry, as for every source.
  const inputSchema: Record<string, unknown> = { ...(originalSchema ?? {}) };
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
    source: `mcp:${server.name}`,
    meta: { server: server.name, remote_name: remote.name },
  };
  if (annotations) definition.annotations = { ...annotations };
  if (server.callTimeoutMs !== undefined) definition.timeoutMs = server.callTimeoutMs;
  if (remote.title) definition.meta!.title = remote.title;
  if (remote.outputSchema) definition.meta!.output_schema = remote.outputSchema;

  const validate = lazyValidator(inputSchema, (error) =>
    report({
      stage: "adapt_tool",
      severity: "warning",
      code: "schema_not_compiled",
      source: "mcp",
      item: `${server.name}/${remote.name}`,
      message: `Input schema of "${remote.name}" on server "${server.name}" could not be compiled (${error}); arguments are only checked to be an object.`,
    }),
  );

  const tool: Tool = {
    definition,
    async execute(args, context) {
      try {
        const result = await caller.call(remote.name, args, {
          // Read only if a path needs an AbortSignal: making one is the dearest part of a call.
          get signal() {
            return context.signal;
          },
          onAbort: (listener) => context.onAbort(listener),
          ...(context.trace ? { trace: context.trace } : {}),
          ...(context.progressWanted
            ? { onProgress: (progress: ToolProgress) => context.reportProgress(progress) }
            : {}),
        });
        return convertCallResult(result, {
          server: server.name,
          remoteName: remote.name,
          maxOutputChars: server.maxOutputChars,
        });
      } catch (error) {
        const reason = context.signal.aborted
          ? (abortKind(context.signal) ?? "cancelled")
          : error instanceof McpCallError
            ? error.reason
            : "transport";
        const message = context.signal.aborted
          ? `Call to "${remote.name}" on MCP server "${server.name}" ${reason === "timeout" ? `timed out after ${context.timeoutMs} ms` : "was cancelled"}; the server was sent notifications/cancelled.`
          : `Call to "${remote.name}" on MCP server "${server.name}" failed (${reason}): ${errorMessage(error)}`;
        return toolFailure("mcp_call_error" satisfies McpToolErrorCode, message, {
          metadata: { server: server.name, remote_tool: remote.name, reason },
        });
      }
    },
  };
  tool.validate = validate;
  return { tool, diagnostics };
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
