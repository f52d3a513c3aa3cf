import type { McpServerConfig } from "../config/server-config.js";
import type { DialOptions, McpSession, SessionDialer } from "./mcp-session.js";
import type { EarlyStdio } from "./sdk-connect.js";
import { StderrTail } from "./stderr-tail.js";
import { stdioTransport } from "./stdio-process-transport.js";

let sdk: Promise<typeof import("./sdk-connect.js")> | undefined;

/**
 * Dials servers with `@modelcontextprotocol/sdk` 1.x (sdk-connect.ts). The SDK is loaded on the
 * first dial, not when the plugin is imported: a command that connects nothing never pays for
 * it, and a stdio server is spawned first, so it boots while the SDK's modules load.
 */
export class SdkDialer implements SessionDialer {
  async dial(server: McpServerConfig, options: DialOptions): Promise<McpSession> {
    let early: EarlyStdio | undefined;
    if (server.transport === "stdio") {
      const tail = new StderrTail(options.stderrLines ?? 40);
      early = { transport: stdioTransport(server, tail, options), tail };
      early.transport.spawnEarly();
    }
    sdk ??= import("./sdk-connect.js");
    try {
      const { connectWithSdk } = await sdk;
      return await connectWithSdk(server, options, early);
    } catch (error) {
      // A failed connect closes its transport; this also covers a failure before it got that
      // far. The process spawned here must not outlive the dial (closing twice is harmless).
      await early?.transport.close();
      throw error;
    }
  }
}
