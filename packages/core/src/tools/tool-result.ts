import type { ContentBlock } from "./content.js";

/**
 * The closed set of failure codes. Models and callers branch on these, so adding one is a
 * contract change: keep this list and `docs/tool-results.md` in step.
 */
export const TOOL_ERROR_CODES = [
  "invalid_arguments",
  "unknown_tool",
  "denied",
  "timeout",
  "cancelled",
  "mcp_call_error",
  "mcp_tool_error",
  "tool_error",
  "internal_error",
] as const;

export type ToolErrorCode = (typeof TOOL_ERROR_CODES)[number];

export interface ToolError {
  code: ToolErrorCode;
  message: string;
}

/** What a tool call produced. Its JSON form is the public `ToolResult` shape of the CLI. */
export interface ToolResult {
  ok: boolean;
  content: ContentBlock[];
  /** Structured value (e.g. MCP `structuredContent`), kept alongside the content blocks. */
  structured?: unknown;
  error?: ToolError;
  /** Local facts about the call (tool, source, duration_ms, timeout_ms ...). */
  metadata: Record<string, unknown>;
}

/** A successful result with the given content. Strings become one text block. */
export function toolSuccess(
  content: string | ContentBlock[],
  options: { structured?: unknown; metadata?: Record<string, unknown> } = {},
): ToolResult {
  const result: ToolResult = {
    ok: true,
    content: typeof content === "string" ? [{ type: "text", text: content }] : content,
    metadata: { ...(options.metadata ?? {}) },
  };
  if (options.structured !== undefined) result.structured = options.structured;
  return result;
}

/**
 * A failed result. The message is also the single text block, so a model that only reads
 * content still learns why the call failed.
 */
export function toolFailure(
  code: ToolErrorCode,
  message: string,
  options: {
    content?: ContentBlock[];
    structured?: unknown;
    metadata?: Record<string, unknown>;
  } = {},
): ToolResult {
  const result: ToolResult = {
    ok: false,
    content: options.content ?? [{ type: "text", text: message }],
    error: { code, message },
    metadata: { ...(options.metadata ?? {}) },
  };
  if (options.structured !== undefined) result.structured = options.structured;
  return result;
}

export function isToolErrorCode(value: unknown): value is ToolErrorCode {
  return typeof value === "string" && (TOOL_ERROR_CODES as readonly string[]).includes(value);
}
