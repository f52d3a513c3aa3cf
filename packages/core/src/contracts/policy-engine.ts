import type { ToolDefinition } from "./tool-definition.js";

/**
 * `default`: read-only tools run, others ask. `plan`: only read-only tools are offered and
 * allowed. `accept_edits`: file edits are allowed too. `bypass`: everything not denied runs.
 */
export const PERMISSION_MODES = ["default", "plan", "accept_edits", "bypass"] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

export type Verdict = "allow" | "ask" | "deny";

/** Where a rule came from: `code` (createAgent/CLI), or a config layer (`user`, `project`). */
export type RuleOrigin = "code" | "user" | "project" | "managed" | (string & {});

/** The origin of an administrator's rules (managed settings), which no other layer loosens. */
export const MANAGED_RULE_ORIGIN = "managed";

/** What made the decision: a rule, the mode, the agent allow-list or the tool's safety. */
export type DecisionBasis =
  | { kind: "rule"; verdict: Verdict; pattern: string; origin: RuleOrigin }
  /** A deny rule could match what the command builds at run time: asked, in every mode. */
  | { kind: "unclear_command"; pattern: string; origin: RuleOrigin }
  | { kind: "mode"; mode: PermissionMode }
  | { kind: "allow_list"; patterns: readonly string[] }
  | { kind: "safety"; safety: ToolDefinition["safety"] }
  | { kind: "engine_error" }
  | { kind: "unknown_tool" }
  /** The tool is not for this caller: an app-only tool and the model, or a view and another's tool. */
  | { kind: "audience"; caller: "model" | "app" }
  /** A layer a plugin added while something is active (a loaded skill): it pre-approved or narrowed. */
  | { kind: "layer"; effect: "allow" | "only"; origin: RuleOrigin; patterns: readonly string[] }
  /** The run ended before the call could be decided. */
  | { kind: "aborted" }
  /** A tool that makes inner calls (a code-mode program), called from inside another one. */
  | { kind: "nested_inner_calls" }
  /** A replay found the side-effect call started and unfinished: it may have run once already. */
  | { kind: "interrupted" }
  /** A `beforeToolCall` hook denied it (the policy was not asked). */
  | { kind: "hook"; hook: string }
  | { kind: "approval"; approver: "callback" | "none" };

/** Decisions are data: the verdict, a sentence saying why, and what matched. */
export interface PolicyDecision {
  verdict: Verdict;
  reason: string;
  matched: DecisionBasis;
}

/** Decides whether a tool call may run, and which tools the model is offered at all. */
export interface PolicyEngine {
  readonly mode: PermissionMode;
  decide(tool: ToolDefinition, args: unknown): PolicyDecision | Promise<PolicyDecision>;
  /** False for tools the model must not even see (plan mode, allow-list, deny-by-name). */
  isOffered(tool: ToolDefinition): boolean;
  /** Switch the mode while the agent lives (a chat's `/mode`); engines that cannot leave it out. */
  setMode?: ((mode: PermissionMode) => void) | undefined;
}

/** DI token for {@link PolicyEngine}. */
export const PolicyEngine = Symbol.for("@pseudoclaude/core:PolicyEngine");
