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
 * The agent's approver while it serves as a gateway, and the way a client's answer reaches its
 * call. A call that needs approval is asked of the connected client before the agent runs it
 * (elicitation); the answer goes with the call as its own approver (`callTool({ approver })`).
 * Any other call that needs one is denied: the gateway has no person of its own to ask.
 */
export class ClientApprovals {
  /** Calls running now that could take a question: by tool source, each with its client. */
  private readonly running = new Map<string, Map<Elicitor, object>>();

  /** The agent's own approver: only a client's call, with its answer, can be approved. */
  readonly approver: Approver = (): ApprovalAnswer => ({
    verdict: "deny",
    reason: "Only a gateway client can approve calls here.",
  });

  /**
   * The agent's elicitation callback while it serves: a question an upstream server asks during
   * a client's call goes to that client (see `with`), when it can answer; any other is declined.
   */
  readonly elicitor: Elicitor = (request: ElicitationRequest): Promise<ElicitationResponse> => {
    const ask = this.onlyAsker(request.source);
    return ask ? ask(request) : Promise.resolve({ action: "decline" });
  };

  /**
   * Run `call`, handing it the approver that gives the client's answer (pass it to
   * `agent.callTool` as `approver`); with `ask`, an upstream server's question during the call
   * is put to that client.
   */
  with<T>(
    answer: ClientAnswer,
    call: (approver: Approver) => Promise<T>,
    ask?: { source: string; client: object; ask: Elicitor },
  ): Promise<T> {
    const approver = answerOf(answer);
    if (!ask) return call(approver);
    const running = this.running.get(ask.source) ?? new Map<Elicitor, object>();
    this.running.set(ask.source, running);
    running.set(ask.ask, ask.client);
    return call(approver).finally(() => {
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

/**
 * One call's approver. Its policy asks only when the gateway found it would and asked the
 * client first; a call that asks without an answer had its arguments or tool changed by a hook
 * after that check.
 */
function answerOf(answer: ClientAnswer): Approver {
  if (answer.kind === "answered") return () => ({ verdict: answer.verdict, reason: answer.reason });
  return () => ({
    verdict: "deny",
    reason:
      "The call needed approval the client was not asked for (a hook changed it after the gateway checked); call it again.",
  });
}
