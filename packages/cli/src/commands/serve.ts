import type { LoadedConfig } from "@pseudoclaude/core";
import { type WorkspaceConsent, workspaceConsent } from "@pseudoclaude/core/consent";
import { loadCliConfig, openCliAgent, projectApprovals } from "../cli-agent.js";
import { CliConfigError, CliUsageError } from "../cli-errors.js";
import { writeJson, writeLine } from "../cli-io.js";
import type { CommandContext, CommandSpec } from "../command.js";
import {
  adminUrl,
  DEFAULT_RESTATE_ADMIN,
  durableClient,
  identityKeys,
  parseDurable,
  parseOnInterrupted,
} from "../durable/durable-flags.js";
import { EXIT } from "../exit-codes.js";
import { parseMode, parsePort, parseToolSearchMode } from "../flag-values.js";
import { noProviderHelp } from "../no-provider.js";
import { importOptional } from "../optional-package.js";
import type { Prompter } from "../prompter.js";
import { createProvider } from "../providers.js";
import { runServeMcp } from "./serve-mcp.js";

/** Restate's convention for a worker's port. */
const DEFAULT_WORKER_PORT = 9080;

/**
 * `pseudoclaude serve --mcp`: the registry as an MCP server; `pseudoclaude serve --durable
 * restate`: a worker that runs durable sessions.
 */
export const serveCommand: CommandSpec = {
  name: "serve",
  summary:
    "Serve the agent's tools as one MCP server (--mcp), or durable runs for Restate (--durable restate).",
  usage: `Usage: pseudoclaude serve --mcp [--http PORT [--host H] [--no-auth | --oauth-issuer URL
                   [--oauth-scope S]...]] [--provider NAME] [--model M] [--script FILE]
                   [--mode M] [--trust-project] [--workspace DIR] [--plugin PATH]...
       pseudoclaude serve --durable restate [--port N] [--host H] [--register] [--admin URL]
                   [--provider NAME] [--model M] [--script FILE] [--mode M]
                   [--tool-search MODE] [--on-interrupted ask|retry|fail] [--identity-key KEY]...
                   [--workspace DIR] [--plugin PATH]...

--mcp: the tools of the agent "run" would make (MCP servers, built-in tools, skills,
sub-agents) served as one MCP server (docs/gateway.md), over stdio unless --http. Every call
goes through your policy: deny rules hold, and a call it would ask about is asked of the
client through elicitation (refused when the client cannot answer). The gateway section of
your config chooses what is exposed (gateway.expose) and how; each call is appended to an
audit file (~/.PseudoClaude/gateway-audit.jsonl).
  --http PORT         Streamable HTTP on PORT (0 picks one) at /mcp, both protocol eras
  --host H            the address to listen on (default 127.0.0.1)
  (auth)              a bearer token: $PSEUDOCLAUDE_GATEWAY_TOKEN, else a new one printed at
                      start; --oauth-issuer URL: JWT access tokens of that authorization
                      server, for this URL (--oauth-scope S required; repeatable);
                      --no-auth: none, on a loopback address only
  --json              once listening: {"url", "port", "auth", "token"?, "tools"}
Over stdio nothing is asked at the terminal: approve the workspace's own servers first
(pseudoclaude trust) or pass --trust-project.

--durable restate: a worker for durable runs (docs/durable-runs.md). Each session is a Restate virtual object
"pseudoclaude" keyed by its id; a run is built here from the workspace's config, plugins and
provider, as "pseudoclaude run" builds it, with each model turn and tool call a step the
server records. Submit runs with "pseudoclaude run --durable restate --session ID PROMPT".
Any number of workers may serve one server; a run survives the worker that started it.

  --durable restate   the engine (the only one today)
  --port N            where to listen (default ${DEFAULT_WORKER_PORT}; 0 picks a free port)
  --host H            the address to listen on (default 127.0.0.1: a worker runs what the
                      server sends it, so open it only to the server's network)
  --register          tell the server about this worker (its admin API) at http://HOST:PORT;
                      behind a load balancer, register the balancer's URL instead
  --admin URL         Restate's admin API (default: $PSEUDOCLAUDE_RESTATE_ADMIN, else ${DEFAULT_RESTATE_ADMIN})
  --on-interrupted W  a side-effect call a worker died in: ask (default, an approval saying
                      it may have run once), retry, or fail
  --identity-key KEY  take only requests the server signed with this request identity key
                      (publickeyv1_…, logged by the server at start; repeatable; default
                      $PSEUDOCLAUDE_RESTATE_IDENTITY_KEYS, comma separated). Without one,
                      anyone who reaches the worker can run sessions on it.
  --provider, --model, --script, --mode, --tool-search, --code-mode   as for run
  --system-prompt, --append-system-prompt, --no-instructions   as for run: every run the
                      worker takes gets the same system prompt
  --json              once listening: {"url", "port", "object", "registered"}

Runs until Ctrl-C or SIGTERM (exit 130); runs in flight then continue on another worker.`,
  flags: [
    "mcp",
    "http",
    "no-auth",
    "oauth-issuer",
    "oauth-scope",
    "durable",
    "port",
    "host",
    "register",
    "admin",
    "on-interrupted",
    "identity-key",
    "provider",
    "model",
    "script",
    "mode",
    "tool-search",
    "code-mode",
    "system-prompt",
    "append-system-prompt",
    "no-instructions",
    "trust-project",
  ],
  positionals: { min: 0, max: 0, names: "" },
  run: runServe,
};

/** A worker asks no one at its terminal: approvals go to the server (pseudoclaude approve). */
const NO_PROMPTER: Prompter = { ask: async () => "", close: () => undefined };

async function runServe(context: CommandContext): Promise<number> {
  const { flags, io } = context;
  if (flags.mcp) {
    if (flags.durable !== undefined || flags.port !== undefined)
      throw new CliUsageError(
        "invalid_usage",
        flags.durable !== undefined
          ? "--mcp and --durable are two different servers; start one of them."
          : "--mcp listens on --http PORT (--port is the durable worker's).",
        { details: { flag: flags.durable !== undefined ? "durable" : "port" } },
      );
    if (flags["tool-search"] !== undefined)
      throw new CliUsageError(
        "invalid_usage",
        "--tool-search decides what a model is offered; serve --mcp offers every tool to the MCP client.",
        { details: { flag: "tool-search" } },
      );
    return runServeMcp(context);
  }
  for (const flag of ["http", "no-auth", "oauth-issuer", "oauth-scope"] as const)
    if (flags[flag] !== undefined)
      throw new CliUsageError("invalid_usage", `--${flag} needs --mcp.`, { details: { flag } });
  if (parseDurable(flags.durable) === undefined)
    throw new CliUsageError(
      "missing_flag",
      '"serve" needs --durable restate (the engine that keeps the runs), or --mcp to serve the agent\'s tools as one MCP server.',
      { details: { flag: "durable" } },
    );
  const port = parsePort(flags.port, DEFAULT_WORKER_PORT);
  const onInterruptedSideEffect = parseOnInterrupted(flags["on-interrupted"]);
  const keys = identityKeys(flags);
  parseMode(flags.mode);
  parseToolSearchMode(flags["tool-search"]);
  const providerFlags = { cwd: io.cwd, model: flags.model, script: flags.script };
  const provider = (config: LoadedConfig, consent: WorkspaceConsent) =>
    createProvider(flags.provider, providerFlags, config, consent);
  // Check what every run needs before listening: a broken config fails now, not per run.
  const { workspace, config } = await loadCliConfig(flags, io);
  if (!(await provider(config, workspaceConsent(projectApprovals(flags), workspace, undefined))))
    throw new CliConfigError(
      "no_provider",
      noProviderHelp(process.env, '"serve" needs a model provider and none is configured.'),
    );
  const { serveDurableAgent, DEFAULT_OBJECT_NAME } = await importOptional<
    typeof import("@pseudoclaude/durable-restate")
  >("@pseudoclaude/durable-restate", "A durable worker (serve --durable restate)");
  const worker = await serveDurableAgent({
    port,
    ...(flags.host !== undefined ? { host: flags.host } : {}),
    ...(onInterruptedSideEffect ? { onInterruptedSideEffect } : {}),
    ...(keys.length > 0 ? { identityKeys: keys } : {}),
    createAgent: async (session) =>
      (
        await openCliAgent({
          flags,
          io,
          provider,
          store: session,
          prompter: NO_PROMPTER,
          systemPrompt: true,
        })
      ).agent,
  });
  try {
    if (flags.register) await (await durableClient(flags)).register(worker.url);
  } catch (error) {
    await worker.close();
    writeLine(
      io.stderr,
      `Cannot register ${worker.url} with ${adminUrl(flags)}: ${(error as Error).message}`,
    );
    return EXIT.failed;
  }
  if (flags.json)
    writeJson(io.stdout, {
      url: worker.url,
      port: worker.port,
      object: DEFAULT_OBJECT_NAME,
      registered: flags.register === true,
    });
  else {
    writeLine(
      io.stdout,
      `Worker for Restate listening on ${worker.url} (object "${DEFAULT_OBJECT_NAME}").`,
    );
    writeLine(
      io.stdout,
      flags.register
        ? `Registered with ${adminUrl(flags)}.`
        : `Register it once: pseudoclaude serve --register, or POST {"uri":"${worker.url}"} to ${adminUrl(flags)}/deployments.`,
    );
  }
  await new Promise<void>((resolve) => {
    if (io.signal?.aborted) resolve();
    io.signal?.addEventListener("abort", () => resolve(), { once: true });
  });
  // Runs in flight end with their agents (no server they started outlives the worker); another
  // worker replays them, as after a crash.
  await worker.close();
  return EXIT.ok;
}
