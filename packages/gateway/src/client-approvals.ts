import { AsyncLocalStorage } from "node:async_hooks";
import type {
  ApprovalAnswer,
  Approver,
  ElicitationRequest,
  ElicitationResponse,
  Elicitor,
} from "@pseudoclaude/core";

/** What the connected client's person answered for one call, if they were asked. */
export type ClientAnswer =
  | { kind: "none" }
  | { kind: "answered"; verdict: "allow" | "deny"; reason: string };

/**
 * The agent's approver while it serves as a gateway. A call that needs approval is asked of
 * the connected client before the agent runs it (elicitation); the answer rides with the call
 * through `agent.callTool`, and this approver reads it back. Anything else is denied: the
 * gateway has no person of its own to ask.
 */
export class ClientApprovals {
  private readonly calls = new AsyncLocalStorage<{ answer: ClientAnswer; ask?: Elicitor }>();
  /** Calls running now that could take a question: by tool source, each with its client. */
  private readonly running = new Map<string, Map<Elicitor, object>>();

  readonly approver: Approver = (): ApprovalAnswer => {
    const answer = this.calls.getStore()?.answer;
    if (answer?.kind === "answered") return { verdict: answer.verdict, reason: answer.reason };
    return {
      verdict: "deny",
      reason:
        answer === undefined
          ? "Only a gateway client can approve calls here."
          : "The call needed approval the client was not asked for (a hook changed it after the gateway checked); call it again.",
    };
  };

  /**
   * The agent's elicitation callback while it serves: a question an upstream server asks during
   * a client's call goes to that client (`ask`), when it can answer; any other is declined.
   */
  readonly elicitor: Elicitor = (request: ElicitationRequest): Promise<ElicitationResponse> => {
    const ask = this.calls.getStore()?.ask ?? this.onlyAsker(request.source);
    return ask ? ask(request) : Promise.resolve({ action: "decline" });
  };

  /**
   * Run `call` with the client's answer where the approver finds it, and `ask`, the way to
   * put an upstream server's question to the client, where the elicitor finds it.
   */
  with<T>(
    answer: ClientAnswer,
    call: () => Promise<T>,
    ask?: { source: string; client: object; ask: Elicitor },
  ): Promise<T> {
    if (!ask) return this.calls.run({ answer }, call);
    const running = this.running.get(ask.source) ?? new Map<Elicitor, object>();
    this.running.set(ask.source, running);
    running.set(ask.ask, ask.client);
    return this.calls.run({ answer, ask: ask.ask }, call).finally(() => {
      running.delete(ask.ask);
      if (running.size === 0 && this.running.get(ask.source) === running)
        this.running.delete(ask.source);
    });
  }

  /**
   * A server's question arrives on its own connection, outside the call that caused it: it
   * goes to the client whose call to that server is running. When calls of several clients
   * are, nobody can tell whose it is, and it is declined rather than shown to the wrong one.
   */
  private onlyAsker(source: string): Elicitor | undefined {
    const calls = this.running.get(source);
    if (!calls || new Set(calls.values()).size !== 1) return undefined;
    return calls.keys().next().value;
  }
}
