/**
 * The failure codes of MCP tool results, beside the kernel's. They tell "the call never got a
 * tool answer" (`mcp_call_error`: transport, session, protocol, timeout or cancel, with
 * `metadata.reason`) from "the server ran the tool and it failed" (`mcp_tool_error`:
 * `isError`) from "the server answered, but not as it declared" (`mcp_output_invalid`: its
 * `structuredContent` breaks the tool's `outputSchema`, with `metadata.issues` and the value
 * in `metadata.structured_content`): a model should check the connection for the first, read
 * the tool's error for the second, and not trust the third's data.
 */
export const MCP_TOOL_ERROR_CODES = [
  "mcp_call_error",
  "mcp_tool_error",
  "mcp_output_invalid",
] as const;

export type McpToolErrorCode = (typeof MCP_TOOL_ERROR_CODES)[number];
