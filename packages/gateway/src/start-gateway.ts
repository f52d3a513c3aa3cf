import type { Transport } from "@modelcontextprotocol/server";
import type { Agent } from "@pseudoclaude/core";
import type { ClientApprovals } from "./client-approvals.js";
import { Gateway } from "./gateway.js";
import { GatewaySettingsToken } from "./gateway-plugin.js";
import type { GatewaySettings } from "./gateway-section.js";
import { type HttpGateway, type ServeHttpOptions, serveHttp } from "./serve-http.js";
import { serveGatewayStdio } from "./serve-stdio.js";

export interface StartGatewayOptions {
  /** An agent made with `gatewayPlugin()` and `approve: approvals.approver`. */
  agent: Agent;
  approvals: ClientApprovals;
  /** `stdio` (this process's stdin/stdout, or a transport of yours) or Streamable HTTP. */
  serve: { stdio: true; transport?: Transport } | { http: ServeHttpOptions };
  /** The version the gateway reports to clients. */
  version: string;
  onError?: ((error: unknown) => void) | undefined;
}

export interface RunningGateway {
  readonly gateway: Gateway;
  /** The MCP endpoint, over HTTP. */
  readonly url?: string;
  readonly port?: number;
  /** Stops serving (the agent stays open: close it after). */
  close(): Promise<void>;
}

/** Serve an agent's registry as one MCP server (see docs/gateway.md). */
export async function startGateway(options: StartGatewayOptions): Promise<RunningGateway> {
  const settings = options.agent.resolve<GatewaySettings>(GatewaySettingsToken);
  const onError = options.onError ?? (() => undefined);
  const gateway = new Gateway({
    agent: options.agent,
    settings,
    approvals: options.approvals,
    version: options.version,
    onError,
  });
  if ("stdio" in options.serve) {
    const stdio = serveGatewayStdio(gateway, {
      ...(options.serve.transport ? { transport: options.serve.transport } : {}),
      onError,
    });
    return {
      gateway,
      async close() {
        await stdio.close();
        await gateway.close();
      },
    };
  }
  let http: HttpGateway;
  try {
    http = await serveHttp(gateway, { ...options.serve.http, onError });
  } catch (error) {
    await gateway.close();
    throw error;
  }
  return {
    gateway,
    url: http.url,
    port: http.port,
    async close() {
      await http.close();
      await gateway.close();
    },
  };
}
