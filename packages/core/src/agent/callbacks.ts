import type { PolicyDecision } from "../policy/policy-engine.js";
import type { ToolCall } from "../tools/tool-call.js";
import type { ToolDefinition } from "../tools/tool-definition.js";

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

/** Approval callback. Absent means every `ask` is denied. Errors count as `deny`. */
export type Approver = (request: ApprovalRequest) => ApprovalAnswer | Promise<ApprovalAnswer>;

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
