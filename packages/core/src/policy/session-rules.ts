import type { ApprovalRequest } from "../contracts/callbacks.js";

/**
 * Calls a person allowed "for this session" (a chat's `a`, the studio's "allow for this
 * session"): by tool, or for a command tool by the exact command (allowing `npm test` once for
 * the session must not allow `rm -rf`). They live in memory only. Deny rules and plan mode
 * still decide first: the policy only asks about what it would let run.
 */
export class SessionRules {
  private readonly allowed = new Set<string>();

  matches(request: ApprovalRequest): boolean {
    return this.allowed.has(sessionRuleKey(request));
  }

  /** Allow calls like this one for the rest of the session; answers the rule's key. */
  add(request: ApprovalRequest): string {
    const key = sessionRuleKey(request);
    this.allowed.add(key);
    return key;
  }

  list(): string[] {
    return [...this.allowed];
  }
}

/** `Tool`, or `Tool(command)` for a tool whose permission key is a command argument. */
export function sessionRuleKey({ tool, call }: Pick<ApprovalRequest, "tool" | "call">): string {
  const permission = tool.permissionKey;
  const args = call.arguments as Record<string, unknown> | undefined;
  if (permission?.match === "command" && typeof args?.[permission.argument] === "string")
    return `${tool.name}(${args[permission.argument] as string})`;
  return tool.name;
}
