import {
  PROTOCOL_VERSION_META_KEY,
  SdkErrorCode,
  SdkHttpError,
} from "@modelcontextprotocol/client";
import type { LaneEra } from "./http-call-lane.js";

/**
 * 2026-07-28 over the lane, as the v2 transport sends a request: the standard headers taken
 * from the message (`MCP-Protocol-Version` from its envelope, `Mcp-Method`, and `Mcp-Name` for
 * a call, encoded as the client encodes it), refusals thrown as its SdkHttpError, and a 400
 * that carries the request's JSON-RPC error taken as the answer.
 */
export const MODERN_LANE: LaneEra = {
  httpError: (status, message) =>
    new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, message, { status }),
  headersOf(message) {
    const { method, params } = message as {
      method?: string;
      params?: { name?: unknown; _meta?: Record<string, unknown> };
    };
    const headers: Record<string, string> = {};
    const version = params?._meta?.[PROTOCOL_VERSION_META_KEY];
    if (typeof method !== "string" || typeof version !== "string") return headers;
    headers["mcp-protocol-version"] = version;
    headers["mcp-method"] = method;
    if (method === "tools/call" && typeof params?.name === "string")
      headers["mcp-name"] = headerValue(params.name);
    return headers;
  },
  refusalsAnswer: true,
};

/**
 * A name as an HTTP field value, by the revision's rule for `Mcp-Name` and `Mcp-Param-*`: as it
 * is when it is visible ASCII (or tabs) without surrounding spaces, else UTF-8 in base64
 * between `=?base64?` and `?=` (so is a value that looks like that already, or an empty one).
 */
function headerValue(value: string): string {
  const plain =
    value.length > 0 &&
    value === value.trim() &&
    /^[\t\x20-\x7e]*$/.test(value) &&
    !(value.startsWith("=?base64?") && value.endsWith("?="));
  return plain ? value : `=?base64?${Buffer.from(value, "utf8").toString("base64")}?=`;
}
