import type http from "node:http";
import type { JSONRPCMessage } from "@modelcontextprotocol/client";
import { refused } from "./http-access.js";

/** The media type of a response, without its parameters. */
export function contentType(response: http.IncomingMessage): string {
  return String(response.headers["content-type"] ?? "")
    .split(";")[0]!
    .trim()
    .toLowerCase();
}

/** A response's whole body as text. */
export function readAll(response: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    response.setEncoding("utf8");
    response.on("data", (chunk: string) => {
      text += chunk;
    });
    response.once("end", () => resolve(text));
    response.once("error", reject);
  });
}

/** A message the server sent, if it is JSON-RPC 2.0 at all (the client checks the rest). */
export function jsonRpc(message: unknown): JSONRPCMessage {
  if (
    !message ||
    typeof message !== "object" ||
    (message as { jsonrpc?: unknown }).jsonrpc !== "2.0"
  )
    throw refused(-1, "The server answered with something that is not JSON-RPC 2.0.");
  return message as JSONRPCMessage;
}
