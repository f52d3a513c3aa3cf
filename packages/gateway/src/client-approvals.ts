import { AsyncLocalStorage } from "node:async_hooks";
import type { ApprovalAnswer, Approver } from "@pseudoclaude/core";

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
  private readonly answers = new AsyncLocalStorage<ClientAnswer>();

  readonly approver: Approver = (): ApprovalAnswer => {
    const answer = this.answers.getStore();
    if (answer?.kind === "answered") return { verdict: answer.verdict, reason: answer.reason };
    return {
      verdict: "deny",
      reason:
        answer === undefined
          ? "Only a gateway client can approve calls here."
          : "The call needed approval the client was not asked for (a hook changed it after the gateway checked); call it again.",
    };
  };

  /** Run `call` with the client's answer where the approver finds it. */
  with<T>(answer: ClientAnswer, call: () => Promise<T>): Promise<T> {
    return this.answers.run(answer, call);
  }
}
