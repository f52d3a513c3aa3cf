import { randomBytes } from "node:crypto";
import type { LoadedConfig } from "@pseudoclaude/core";
import type { WorkspaceConsent } from "@pseudoclaude/core/consent";
import { askForWorkspaceRequests } from "../ask-workspace-requests.js";
import { withCliAgent } from "../cli-agent.js";
import { CliUsageError } from "../cli-errors.js";
import { isInteractive, writeJson, writeLine } from "../cli-io.js";
import type { CommandContext } from "../command.js";
import { EXIT } from "../exit-codes.js";
import { parseMode, parsePort } from "../flag-values.js";
import { importOptional } from "../optional-package.js";
import { type Prompter, ReadlinePrompter } from "../prompter.js";
import { createProvider } from "../providers.js";
import { cliVersion } from "../version.js";

/** Where a person gives the HTTP gateway's bearer token (never on the command line). */
export const GATEWAY_TOKEN_ENV = "PSEUDOCLAUDE_GATEWAY_TOKEN";

/** Over stdio nobody can be asked at a terminal: stdin is the protocol. */
const NO_PROMPTER: Prompter = { ask: async () => "", close: () => undefined };

type Gateway = typeof import("@pseudoclaude/gateway");

/**
 * `pseudoclaude serve --mcp [--http PORT [--host H]]`: the agent `run` would make, its
 * registry served as one MCP server. Calls the policy would ask about are asked of the client.
 */
export async function runServeMcp({ flags, io }: CommandContext): Promise<number> {
  const http = flags.http !== undefined ? parsePort(flags.http, 0) : undefined;
  if (http === undefined)
    for (const flag of ["host", "no-auth", "oauth-issuer", "oauth-scope"] as const)
      if (flags[flag] !== undefined)
        throw new CliUsageError(
          "invalid_usage",
          `--${flag} applies to the HTTP gateway (--http PORT).`,
          {
            details: { flag },
          },
        );
  if (flags["no-auth"] && flags["oauth-issuer"])
    throw new CliUsageError("invalid_usage", "--no-auth and --oauth-issuer contradict each other.");
  parseMode(flags.mode);
  const gw = await importOptional<Gateway>("@pseudoclaude/gateway", "The gateway (serve --mcp)");
  if (flags["no-auth"] && flags.host !== undefined && !gw.isLoopback(flags.host))
    throw new CliUsageError(
      "invalid_usage",
      `--no-auth serves only a loopback address, not ${flags.host}: anyone who reaches it could call your tools. Drop --no-auth (a bearer token is made), or use --oauth-issuer.`,
      { details: { flag: "no-auth" } },
    );
  const auth = http === undefined ? undefined : httpAuth(flags, gw);
  // What the workspace's files ask for is asked at a terminal, as in chat; over stdio there is
  // none (stdin is the protocol), so it stays off unless approved before or --trust-project.
  if (http !== undefined && !flags["trust-project"]) {
    const prompter = new ReadlinePrompter(io);
    try {
      await askForWorkspaceRequests(flags, io, prompter, io.stderr, isInteractive(io));
    } finally {
      prompter.close();
    }
  }
  const approvals = new gw.ClientApprovals();
  const providerFlags = { cwd: io.cwd, model: flags.model, script: flags.script };
  return withCliAgent(
    {
      // Over stdio stdout carries the protocol; the session writes diagnostics to stderr.
      flags,
      io,
      provider: (config: LoadedConfig, consent: WorkspaceConsent) =>
        createProvider(flags.provider, providerFlags, config, consent),
      approver: () => approvals.approver,
      // An upstream server's question during a client's call is that client's to answer.
      elicitor: approvals.elicitor,
      plugins: {
        gateway: gw.gatewayPlugin(),
        // Servers hear that views are hosted only when the user's gateway.apps says so.
        mcpAppHost: (config) => gw.loadGatewaySettings(config).settings.apps,
      },
      prompter: NO_PROMPTER,
    },
    async ({ agent }) => {
      await agent.whenSourcesStarted();
      const running = await gw.startGateway({
        agent,
        approvals,
        serve:
          http === undefined
            ? { stdio: true }
            : {
                http: {
                  port: http,
                  ...(flags.host !== undefined ? { host: flags.host } : {}),
                  auth: auth as NonNullable<typeof auth>,
                },
              },
        version: cliVersion(),
        onError: (error) =>
          writeLine(
            io.stderr,
            `gateway: ${error instanceof Error ? error.message : String(error)}`,
          ),
      });
      try {
        const tools = running.gateway.tools.list().length;
        if (running.url !== undefined) {
          const token = auth?.kind === "token" ? auth.token : undefined;
          if (flags.json)
            writeJson(io.stdout, {
              url: running.url,
              port: running.port,
              auth: auth?.kind,
              ...(token && !process.env[GATEWAY_TOKEN_ENV] ? { token } : {}),
              tools,
            });
          else {
            writeLine(
              io.stdout,
              `MCP gateway for ${agent.workspace}: ${running.url} (${tools} tools)`,
            );
            if (token && !process.env[GATEWAY_TOKEN_ENV])
              writeLine(
                io.stdout,
                `Bearer token (new at each start; set ${GATEWAY_TOKEN_ENV} to choose one): ${token}`,
              );
            writeLine(io.stdout, "Ctrl-C stops it.");
          }
        } else
          writeLine(
            io.stderr,
            `pseudoclaude MCP gateway on stdio for ${agent.workspace} (${tools} tools).`,
          );
        await new Promise<void>((resolve) => {
          if (io.signal?.aborted) resolve();
          io.signal?.addEventListener("abort", () => resolve(), { once: true });
          // A stdio client that goes away ends the gateway.
          if (http === undefined) process.stdin.once("end", () => resolve());
        });
      } finally {
        await running.close();
      }
      return EXIT.ok;
    },
  );
}

function httpAuth(
  flags: CommandContext["flags"],
  gw: Gateway,
): import("@pseudoclaude/gateway").GatewayAuth {
  if (flags["no-auth"]) return { kind: "none" };
  const issuer = flags["oauth-issuer"];
  if (issuer !== undefined) {
    try {
      new URL(issuer);
    } catch {
      throw new CliUsageError(
        "invalid_flag_value",
        `--oauth-issuer must be a URL, not "${issuer}".`,
        {
          details: { flag: "oauth-issuer" },
        },
      );
    }
    return { kind: "oauth", issuer, scopes: flags["oauth-scope"] ?? [] };
  }
  const given = process.env[GATEWAY_TOKEN_ENV];
  if (given !== undefined) {
    if (given.length < gw.MIN_TOKEN_LENGTH)
      throw new CliUsageError(
        "invalid_flag_value",
        `${GATEWAY_TOKEN_ENV} must be at least ${gw.MIN_TOKEN_LENGTH} characters: a short token is guessable.`,
      );
    return { kind: "token", token: given };
  }
  return { kind: "token", token: randomBytes(32).toString("base64url") };
}
