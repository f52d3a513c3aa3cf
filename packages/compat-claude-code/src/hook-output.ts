/**
 * How a Claude Code hook's stdout JSON reads (exit 0 only: Claude Code ignores stdout on other
 * exits). Each reader takes the parsed object and returns a small union the caller narrows.
 */

/** A hook's stdout, parsed as a JSON object. */
export type HookJson = Record<string, unknown>;

const specificOf = (json: HookJson): HookJson =>
  typeof json.hookSpecificOutput === "object" && json.hookSpecificOutput !== null
    ? (json.hookSpecificOutput as HookJson)
    : {};

const text = (value: unknown): string | undefined =>
  typeof value === "string" && value !== "" ? value : undefined;

/** `continue: false` stops everything, whatever the event: its `stopReason` says why. */
export function stopOf(json: HookJson | undefined): string | undefined {
  if (json?.continue !== false) return undefined;
  return text(json.stopReason) ?? "stopped by a hook (continue: false)";
}

/** `systemMessage`: a line Claude Code shows the user (never the model). */
export function systemMessageOf(json: HookJson | undefined): string | undefined {
  return json ? text(json.systemMessage) : undefined;
}

/**
 * PreToolUse: `hookSpecificOutput.permissionDecision` (`allow`, `deny`, `ask`),
 * `permissionDecisionReason` and `updatedInput`, or the older top-level `decision`
 * (`approve`, `block`) and `reason`.
 */
export type PreToolUseAnswer =
  | { kind: "deny"; reason: string }
  | { kind: "allow"; reason?: string; input?: unknown }
  | { kind: "ask"; reason?: string; input?: unknown };

export function preToolUseAnswer(json: HookJson | undefined): PreToolUseAnswer {
  if (!json) return { kind: "ask" };
  const specific = specificOf(json);
  const reason = text(specific.permissionDecisionReason) ?? text(json.reason);
  const stop = stopOf(json);
  if (stop !== undefined) return { kind: "deny", reason: stop };
  const decision =
    specific.permissionDecision ??
    (json.decision === "block" ? "deny" : json.decision === "approve" ? "allow" : undefined);
  if (decision === "deny") return { kind: "deny", reason: reason ?? "denied by a hook" };
  const rest = {
    ...(reason ? { reason } : {}),
    ...(specific.updatedInput !== undefined ? { input: specific.updatedInput } : {}),
  };
  return decision === "allow" ? { kind: "allow", ...rest } : { kind: "ask", ...rest };
}

/**
 * PermissionRequest: `hookSpecificOutput.decision.behavior` `allow` (with `updatedInput`) or
 * `deny` (with `message`); nothing means the person is asked as usual.
 */
export type PermissionRequestAnswer =
  | { kind: "allow"; input?: unknown }
  | { kind: "deny"; message: string }
  | { kind: "ask" };

export function permissionRequestAnswer(json: HookJson | undefined): PermissionRequestAnswer {
  if (!json) return { kind: "ask" };
  const stop = stopOf(json);
  if (stop !== undefined) return { kind: "deny", message: stop };
  const decision = specificOf(json).decision as HookJson | undefined;
  if (decision?.behavior === "allow")
    return decision.updatedInput !== undefined
      ? { kind: "allow", input: decision.updatedInput }
      : { kind: "allow" };
  if (decision?.behavior === "deny")
    return { kind: "deny", message: text(decision.message) ?? "denied by a hook" };
  return { kind: "ask" };
}

/** A top-level `decision: "block"` (UserPromptSubmit, PostToolUse, Stop, PreCompact…) and its reason. */
export function blockOf(json: HookJson | undefined): string | undefined {
  if (!json) return undefined;
  const stop = stopOf(json);
  if (stop !== undefined) return stop;
  return json.decision === "block" ? (text(json.reason) ?? "blocked by a hook") : undefined;
}

/** `hookSpecificOutput.additionalContext`: text for the model (SessionStart, UserPromptSubmit, SubagentStart, PostToolUse…). */
export function additionalContextOf(json: HookJson | undefined): string | undefined {
  return json ? text(specificOf(json).additionalContext) : undefined;
}
