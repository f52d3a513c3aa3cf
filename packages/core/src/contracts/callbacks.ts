import type { PolicyDecision } from "./policy-engine.js";
import type { ToolCall } from "./tool-call.js";
import type { ToolDefinition } from "./tool-definition.js";

/** Asked when the policy says `ask`. */
export interface ApprovalRequest {
  tool: ToolDefinition;
  call: ToolCall;
  decision: PolicyDecision;
  signal: AbortSignal;
}

/** `allow` / `deny`, optionally with the person's reason. */
export type ApprovalAnswer =
  | "allow"
  | "deny"
  | { verdict: "allow" | "deny"; reason?: string | undefined };

/**
 * Approval callback, sync or async. Absent means every `ask` is denied. Errors count as `deny`.
 *
 * An async approver's promise may carry any string: TypeScript widens the literal an `async`
 * arrow returns to `string` (microsoft/TypeScript#30185), so `async () => "allow"` must compile.
 * A string other than `allow` or `deny` denies the call, with a reason that quotes it.
 */
export type Approver = (
  request: ApprovalRequest,
) => ApprovalAnswer | Promise<ApprovalAnswer | (string & {})>;

/** What an approver's answer means: `allow` only for an exact allow; anything else denies. */
export function readApprovalAnswer(answer: unknown): {
  verdict: "allow" | "deny";
  /** `: the person's reason`, or a note about an answer that was not one. */
  why: string;
} {
  const verdict =
    typeof answer === "string"
      ? answer
      : typeof answer === "object" && answer !== null
        ? (answer as { verdict?: unknown }).verdict
        : undefined;
  if (verdict === "allow") return { verdict: "allow", why: "" };
  if (verdict === "deny") {
    const reason =
      typeof answer === "object" && answer !== null
        ? (answer as { reason?: unknown }).reason
        : undefined;
    return { verdict: "deny", why: typeof reason === "string" && reason ? `: ${reason}` : "" };
  }
  return {
    verdict: "deny",
    why: ` (the approver answered ${JSON.stringify(verdict ?? answer) ?? String(answer)}, which is neither "allow" nor "deny")`,
  };
}

/** A server (or any source) asking the person for structured input (MCP elicitation). */
export interface ElicitationRequest {
  /** Who asks, e.g. `mcp:context7`. */
  source: string;
  message: string;
  /**
   * `form`: answer the fields of `requestedSchema`. `url`: the person is asked to open `url`
   * (a sign-in, a payment) outside the agent; accepting means they agree to go there, and no
   * content is sent back. Default `form`.
   */
  mode?: "form" | "url";
  /** JSON Schema of the requested object (flat, primitive properties); form mode. */
  requestedSchema: Record<string, unknown>;
  /** The page to open; url mode. */
  url?: string;
  signal?: AbortSignal;
}

export interface ElicitationResponse {
  action: "accept" | "decline" | "cancel";
  content?: Record<string, string | number | boolean | string[]> | undefined;
}

/** Elicitation callback. Absent means every request is declined, never left hanging. */
export type Elicitor = (request: ElicitationRequest) => Promise<ElicitationResponse>;

/** The person-facing callbacks of one agent. */
export interface AgentCallbacks {
  approve?: Approver;
  elicit?: Elicitor;
}
