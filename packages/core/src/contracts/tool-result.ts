import type { ContentBlock } from "./content.js";

/**
 * The failure codes the kernel itself produces. Models and callers branch on these, so adding
 * one is a contract change: keep this list and `docs/tool-results.md` in step.
 */
export const KERNEL_TOOL_ERROR_CODES = [
  "invalid_arguments",
  "unknown_tool",
  "denied",
  "timeout",
  "cancelled",
  /** A durable run's side-effect call whose worker stopped mid-call was not run again. */
  "interrupted",
  "tool_error",
  "internal_error",
] as const;

export type KernelToolErrorCode = (typeof KERNEL_TOOL_ERROR_CODES)[number];

/**
 * A failure code: the kernel's, or one a tool source defines for failures only it can tell
 * apart (the MCP plugin's `mcp_call_error` and `mcp_tool_error`). Sources document their own.
 */
export type ToolErrorCode = KernelToolErrorCode | (string & {});

export interface ToolError {
  code: ToolErrorCode;
  message: string;
}

interface ToolResultFields {
  content: ContentBlock[];
  /** Structured value (e.g. MCP `structuredContent`), kept alongside the content blocks. */
  structured?: unknown;
  /** Local facts about the call (tool, source, duration_ms, timeout_ms ...). */
  metadata: Record<string, unknown>;
}

/** A call that did what was asked. */
export interface ToolSuccess extends ToolResultFields {
  ok: true;
  error?: undefined;
}

/** A call that failed; `error.code` says how, and the content says it to the model. */
export interface ToolFailure extends ToolResultFields {
  ok: false;
  error: ToolError;
}

/**
 * What a tool call produced; `ok` tells the two apart. Its JSON form is the public
 * `ToolResult` shape of the CLI.
 */
export type ToolResult = ToolSuccess | ToolFailure;

/** A successful result with the given content. Strings become one text block. */
export function toolSuccess(
  content: string | ContentBlock[],
  options: { structured?: unknown; metadata?: Record<string, unknown> | undefined } = {},
): ToolSuccess {
  const result: ToolSuccess = {
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
    content?: ContentBlock[] | undefined;
    structured?: unknown;
    metadata?: Record<string, unknown> | undefined;
  } = {},
): ToolFailure {
  const result: ToolFailure = {
    ok: false,
    content: options.content ?? [{ type: "text", text: message }],
    error: { code, message },
    metadata: { ...(options.metadata ?? {}) },
  };
  if (options.structured !== undefined) result.structured = options.structured;
  return result;
}
