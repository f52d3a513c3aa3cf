import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import {
  type Agent,
  type InterruptedSideEffect,
  PseudoClaudeError,
  type RunResult,
  type SessionStore,
} from "@pseudoclaude/core";
import * as restate from "@restatedev/restate-sdk";
import { answerEvents, type DurableEventQuery } from "./answer-events.js";
import { durableEventBell } from "./event-bell.js";
import { ObjectSessionStore } from "./object-session-store.js";
import { PENDING_KEY, type PendingApproval } from "./pending-approval.js";
import { RestateJournal } from "./restate-journal.js";
import { type DurableEventPage, RunEventLog } from "./run-events.js";
import { DEFAULT_OBJECT_NAME } from "./state-keys.js";
import { stderrLogger } from "./stderr-logger.js";

/** What a run is asked to do: the prompt, and the limits of an `agent.run`. */
export interface DurableRunInput {
  prompt: string;
  maxTurns?: number | undefined;
  toolTimeoutMs?: number | undefined;
}

export interface DurableAgentOptions {
  /** The virtual object's name. Default `pseudoclaude`. */
  name?: string | undefined;
  /**
   * Build the agent for one invocation, from the same plugins and provider as everywhere. Pass
   * `session` on to `createAgent({ session })`: it is the session's conversation, kept in the
   * object's state. Called again when a run is replayed on another worker.
   */
  createAgent(session: { id: string; store: SessionStore }): Promise<Agent>;
  /** What a replay does with a side-effect call its worker died in. Default `ask`. */
  onInterruptedSideEffect?: InterruptedSideEffect | undefined;
  /**
   * Holds each run's agent while it runs (added when made, removed when closed), so a worker
   * that stops can close them: `serveDurableAgent`'s `close` does.
   */
  running?: Set<Agent> | undefined;
}

/**
 * An agent session as a Restate virtual object keyed by session id: the runs of one session
 * are serialized (one at a time, in order), sessions run in parallel across workers. `run`
 * runs the loop with each model turn and tool call as a journaled step and approvals as
 * awakeables; `pending` lists the approvals the session waits for; `events` streams the latest
 * run's events (`{after}`: from that batch on; `{waitMs}`: waiting for the next batch). Bind
 * {@link durableEventBell} next to it: `events` waits and the run rings through it.
 */
export function durableAgent(options: DurableAgentOptions) {
  const name = options.name ?? DEFAULT_OBJECT_NAME;
  return restate.object({
    name,
    handlers: {
      async run(ctx: restate.ObjectContext, input: DurableRunInput): Promise<RunResult> {
        if (!input || typeof input.prompt !== "string")
          throw new restate.TerminalError('A run needs {"prompt": "..."}.', { errorCode: 400 });
        const id = ctx.key;
        const agent = await options.createAgent({ id, store: new ObjectSessionStore(ctx, id) });
        options.running?.add(agent);
        const events = new RunEventLog(ctx, name);
        try {
          await events.start(agent);
          const result = await agent.run(input.prompt, {
            journal: new RestateJournal(ctx, options.onInterruptedSideEffect, events),
            ...(input.maxTurns !== undefined ? { maxTurns: input.maxTurns } : {}),
            ...(input.toolTimeoutMs !== undefined ? { toolTimeoutMs: input.toolTimeoutMs } : {}),
          });
          await events.flush();
          return result;
        } catch (error) {
          // The framework's own errors (a broken provider, a blocked prompt) end the run: retrying
          // the whole invocation would only fail again.
          if (PseudoClaudeError.is(error)) throw new restate.TerminalError(error.message);
          throw error;
        } finally {
          options.running?.delete(agent);
          await agent.close();
        }
      },
      pending: restate.handlers.object.shared(
        async (ctx: restate.ObjectSharedContext): Promise<PendingApproval[]> =>
          (await ctx.get<PendingApproval[]>(PENDING_KEY)) ?? [],
      ),
      events: restate.handlers.object.shared(
        async (
          ctx: restate.ObjectSharedContext,
          input?: DurableEventQuery | null,
        ): Promise<DurableEventPage> => answerEvents(ctx, name, input),
      ),
    },
  });
}

/** Where a worker listens. */
export interface DurableWorkerOptions extends DurableAgentOptions {
  /** Default 9080, Restate's convention; 0 picks a free one. */
  port?: number | undefined;
  /**
   * Default `127.0.0.1`. A worker runs whatever the server sends it: listen beyond loopback
   * only where the network is the server's alone (or with Restate's request identity keys).
   */
  host?: string | undefined;
  /**
   * Restate request identity public keys (`publickeyv1_…`, which the server logs at start when
   * given `worker.invoker.request-identity-private-key-pem-file`). With them, the worker only
   * takes requests the server signed; without, anyone who reaches it can run sessions.
   */
  identityKeys?: string[] | undefined;
  /** Where the SDK's log lines go. Default: stderr, at `RESTATE_LOGGING` (default `info`). */
  logger?: restate.LoggerTransport | undefined;
}

export interface DurableWorker {
  /** `http://host:port`, to register with the server (`restate deployments register`). */
  url: string;
  port: number;
  /** Stop listening and close the agents of runs in flight; another worker replays those runs. */
  close(): Promise<void>;
}

/** How long a closing worker lets the server end its open streams before cutting them. */
const CLOSE_GRACE_MS = 2_000;

/** A worker: an HTTP/2 endpoint serving the session object, for the server to send runs to. */
export async function serveDurableAgent(options: DurableWorkerOptions): Promise<DurableWorker> {
  const host = options.host ?? "127.0.0.1";
  const running = options.running ?? new Set<Agent>();
  const server = http2.createServer(
    restate.createEndpointHandler({
      services: [durableAgent({ ...options, running }), durableEventBell(options)],
      ...(options.identityKeys?.length ? { identityKeys: options.identityKeys } : {}),
      logger: options.logger ?? stderrLogger,
    }),
  );
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 9080, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on("session", (session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
  });
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    port,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // The server keeps HTTP/2 sessions open to the worker; close does not end them.
      for (const session of sessions) session.close();
      // Runs in flight end here and go on on another worker, as after a crash; what their
      // agents started (MCP servers, commands) ends with them.
      await Promise.all([...running].map((agent) => agent.close()));
      // A graceful close waits for every open stream, and the server may hold one open as long
      // as it likes (an invocation it has not ended): past a grace period, what is still open
      // is cut, as a crash would, so a stopped worker stops.
      const cut = setTimeout(() => {
        for (const session of sessions) session.destroy();
      }, CLOSE_GRACE_MS);
      await closed;
      clearTimeout(cut);
    },
  };
}
