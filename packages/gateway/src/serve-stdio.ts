import type { Transport } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import type { Gateway } from "./gateway.js";

export interface StdioGateway {
  close(): Promise<void>;
}

/**
 * The gateway over this process's stdin and stdout (or `transport`): the client's opening
 * message picks the era, and one server instance serves the connection. Stdout is the
 * protocol: everything else the process says must go to stderr.
 */
export function serveGatewayStdio(
  gateway: Gateway,
  options: { transport?: Transport; onError?: (error: Error) => void } = {},
): StdioGateway {
  const handle = serveStdio((ctx) => gateway.createServer("stdio", ctx, true), {
    ...(options.transport ? { transport: options.transport } : {}),
    ...(options.onError ? { onerror: options.onError } : {}),
  });
  return { close: () => handle.close() };
}
