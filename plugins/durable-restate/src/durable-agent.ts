import {
  type Agent,
  type InterruptedSideEffect,
  PseudoClaudeError,
  type RunResult,
  type SessionStore,
} from "@pseudoclaude/core";
import * as restate from "@restatedev/restate-sdk";
import { ObjectSessionStore } from "./object-session-store.js";
import { PENDING_KEY, type PendingApproval, RestateJournal } from "./restate-journal.js";

/** The virtual object's name unless told otherwise: its URLs are `/<name>/<session>/run`. */
export const DEFAULT_OBJECT_NAME = "pseudoclaude";

/** What a run is asked to do: the prompt, and the limits of an `agent.run`. */
export interface DurableRunInput {
  prompt: string;
  maxTurns?: number;
  toolTimeoutMs?: number;
}

export interface DurableAgentOptions {
  /** The virtual object's name. Default `pseudoclaude`. */
  name?: string;
  /**
   * Build the agent for one invocation, from the same plugins and provider as everywhere. Pass
   * `session` on to `createAgent({ session })`: it is the session's conversation, kept in the
   * object's state. Called again when a run is replayed on another worker.
   */
  createAgent(session: { id: string; store: SessionStore }): Promise<Agent>;
  /** What a replay does with a side-effect call its worker died in. Default `ask`. */
  onInterruptedSideEffect?: InterruptedSideEffect;
}

/**
 * An agent session as a Restate virtual object keyed by session id: the runs of one session
 * are serialized (one at a time, in order), sessions run in parallel across workers. `run`
 * runs the loop with each model turn and tool call as a journaled step and approvals as
 * awakeables; `pending` lists the approvals the session waits for.
 */
export function durableAgent(options: DurableAgentOptions) {
  return restate.object({
    name: options.name ?? DEFAULT_OBJECT_NAME,
    handlers: {
      async run(ctx: restate.ObjectContext, input: DurableRunInput): Promise<RunResult> {
        if (!input || typeof input.prompt !== "string")
          throw new restate.TerminalError('A run needs {"prompt": "..."}.', { errorCode: 400 });
        const id = ctx.key;
        const agent = await options.createAgent({ id, store: new ObjectSessionStore(ctx, id) });
        try {
          return await agent.run(input.prompt, {
            journal: new RestateJournal(ctx, options.onInterruptedSideEffect),
            ...(input.maxTurns !== undefined ? { maxTurns: input.maxTurns } : {}),
            ...(input.toolTimeoutMs !== undefined ? { toolTimeoutMs: input.toolTimeoutMs } : {}),
          });
        } catch (error) {
          // The framework's own errors (a broken provider, a blocked prompt) end the run: retrying
          // the whole invocation would only fail again.
          if (PseudoClaudeError.is(error)) throw new restate.TerminalError(error.message);
          throw error;
        } finally {
          await agent.close();
        }
      },
      pending: restate.handlers.object.shared(
        async (ctx: restate.ObjectSharedContext): Promise<PendingApproval[]> =>
          (await ctx.get<PendingApproval[]>(PENDING_KEY)) ?? [],
      ),
    },
  });
}

/** A worker: an HTTP endpoint serving the session object, for `restate deployments register`. */
export async function serveDurableAgent(
  options: DurableAgentOptions & { port: number },
): Promise<{ port: number }> {
  const port = await restate.serve({ services: [durableAgent(options)], port: options.port });
  return { port };
}
