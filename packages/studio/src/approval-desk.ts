import { randomUUID } from "node:crypto";
import {
  type ApprovalAnswer,
  type ApprovalRequest,
  type Approver,
  type ElicitationRequest,
  type ElicitationResponse,
  type Elicitor,
  SessionRules,
  sessionRuleKey,
} from "@pseudoclaude/core";
import type { StudioEvent } from "./event-hub.js";

/** An approval waiting in the page, as the API shows it. */
export interface PendingApproval {
  id: string;
  kind: "approval";
  tool: string;
  source: string;
  safety: string;
  arguments: unknown;
  /** Why the policy asks (the rule or mode that said `ask`). */
  reason: string;
  /** The key "allow for this session" would remember (`Tool` or `Tool(command)`). */
  sessionKey: string;
  createdAt: string;
  /** The call asked about. */
  callId: string;
  /** The call that made it, for a code-mode program's call. */
  parentCallId?: string;
}

/** A question of a server (MCP elicitation) waiting in the page. */
export interface PendingElicitation {
  id: string;
  kind: "elicitation";
  source: string;
  message: string;
  mode: "form" | "url";
  requestedSchema: Record<string, unknown>;
  url?: string | undefined;
  createdAt: string;
}

/** How the page answers an approval. */
export interface ApprovalDecision {
  verdict: "allow" | "allow_session" | "deny";
  reason?: string | undefined;
}

interface Waiting<T, A> {
  item: T;
  settle(answer: A, remember?: boolean): void;
}

/**
 * Where the agent's questions for a person wait until the page answers them: tool approvals
 * (`approver`, for `createAgent({ approve })`) and servers' elicitations (`elicitor`, for
 * `createAgent({ elicit })`). "Allow for this session" is remembered in memory only, by tool or
 * by exact command, as in the chat. A question whose call is cancelled leaves the queue.
 */
export class ApprovalDesk {
  readonly rules = new SessionRules();
  private readonly approvals = new Map<string, Waiting<PendingApproval, ApprovalAnswer>>();
  private readonly elicitations = new Map<
    string,
    Waiting<PendingElicitation, ElicitationResponse>
  >();
  private readonly listeners = new Set<(event: StudioEvent) => void>();

  /** Pass to `createAgent({ approve })`. */
  readonly approver: Approver = (request) => this.ask(request);

  /** Pass to `createAgent({ elicit })`. */
  readonly elicitor: Elicitor = (request) => this.elicit(request);

  /** Be told when a question arrives or is settled (the studio relays it to the page). */
  onChange(listener: (event: StudioEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  pending(): Array<PendingApproval | PendingElicitation> {
    return [
      ...[...this.approvals.values()].map((waiting) => waiting.item),
      ...[...this.elicitations.values()].map((waiting) => waiting.item),
    ];
  }

  /** Answer an approval; false when there is none with that id (answered, or cancelled). */
  answerApproval(id: string, decision: ApprovalDecision): boolean {
    const waiting = this.approvals.get(id);
    if (!waiting) return false;
    const reason = decision.reason?.trim();
    if (decision.verdict === "deny")
      waiting.settle({ verdict: "deny", reason: reason || "declined in the studio" });
    else if (decision.verdict === "allow_session")
      waiting.settle({ verdict: "allow", reason: "allowed for this session" }, true);
    else waiting.settle("allow");
    return true;
  }

  /** Answer an elicitation; false when there is none with that id. */
  answerElicitation(id: string, response: ElicitationResponse): boolean {
    const waiting = this.elicitations.get(id);
    if (!waiting) return false;
    waiting.settle(response);
    return true;
  }

  /** Deny and decline everything still waiting (the studio is closing). */
  close(): void {
    for (const waiting of this.approvals.values())
      waiting.settle({ verdict: "deny", reason: "the studio closed" });
    for (const waiting of this.elicitations.values()) waiting.settle({ action: "cancel" });
  }

  private ask(request: ApprovalRequest): Promise<ApprovalAnswer> {
    if (this.rules.matches(request))
      return Promise.resolve({ verdict: "allow", reason: "allowed for this session" });
    const item: PendingApproval = {
      id: randomUUID(),
      kind: "approval",
      tool: request.tool.name,
      source: request.tool.source,
      safety: request.tool.safety,
      arguments: request.call.arguments,
      reason: request.decision.reason,
      sessionKey: sessionRuleKey(request),
      createdAt: new Date().toISOString(),
      callId: request.call.id,
      ...(request.call.parentId !== undefined ? { parentCallId: request.call.parentId } : {}),
    };
    return new Promise<ApprovalAnswer>((resolve) => {
      const settle = (answer: ApprovalAnswer, remember = false) => {
        if (!this.approvals.delete(item.id)) return;
        request.signal.removeEventListener("abort", onAbort);
        if (remember) this.rules.add(request);
        this.emit({ type: "approval-settled", id: item.id, answer: verdictOf(answer) });
        resolve(answer);
      };
      const onAbort = () => settle({ verdict: "deny", reason: "the call was cancelled" });
      request.signal.addEventListener("abort", onAbort, { once: true });
      this.approvals.set(item.id, { item, settle });
      this.emit({ type: "approval", approval: item });
    });
  }

  private elicit(request: ElicitationRequest): Promise<ElicitationResponse> {
    const item: PendingElicitation = {
      id: randomUUID(),
      kind: "elicitation",
      source: request.source,
      message: request.message,
      mode: request.mode ?? "form",
      requestedSchema: request.requestedSchema,
      url: request.url,
      createdAt: new Date().toISOString(),
    };
    return new Promise<ElicitationResponse>((resolve) => {
      const settle = (response: ElicitationResponse) => {
        if (!this.elicitations.delete(item.id)) return;
        request.signal?.removeEventListener("abort", onAbort);
        this.emit({ type: "elicitation-settled", id: item.id, action: response.action });
        resolve(response);
      };
      const onAbort = () => settle({ action: "cancel" });
      request.signal?.addEventListener("abort", onAbort, { once: true });
      this.elicitations.set(item.id, { item, settle });
      this.emit({ type: "elicitation", elicitation: item });
    });
  }

  private emit(event: StudioEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}

function verdictOf(answer: ApprovalAnswer): string {
  return typeof answer === "string" ? answer : answer.verdict;
}
