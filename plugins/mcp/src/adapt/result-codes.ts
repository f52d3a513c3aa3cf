/**
 * The failure codes of MCP tool results, beside the kernel's. They tell "the call never got a
 * tool answer" (`mcp_call_error`: transport, session, protocol, timeout or cancel, with
 * `metadata.reason`) from "the server ran the tool and it failed" (`mcp_tool_error`:
 * `isError`): a model should check the connection for one and read the tool's error for the
 * other.
 */
export const MCP_TOOL_ERROR_CODES = ["mcp_call_error", "mcp_tool_error"] as const;

export type McpToolErrorCode = (typeof MCP_TOOL_ERROR_CODES)[number];
