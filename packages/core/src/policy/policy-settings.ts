import type { PermissionMode, RuleOrigin, Verdict } from "../contracts/policy-engine.js";

/** The policy as the user writes it, in code (`createAgent({ policy })`) or config (`permissions`). */
export interface PolicyOptions {
  mode?: PermissionMode | undefined;
  /**
   * Agent allow-list: when set, only tools whose names match one of these patterns exist for
   * this agent (offered and callable). Unlike `allow` rules it grants nothing.
   */
  tools?: string[] | undefined;
  allow?: string[] | undefined;
  ask?: string[] | undefined;
  deny?: string[] | undefined;
}

/** One rule string with its verdict and origin, before parsing. */
export interface RuleSpec {
  verdict: Verdict;
  pattern: string;
  origin: RuleOrigin;
}

/** Everything the default engine needs, combined from code and every config layer. */
export interface PolicySettings {
  mode: PermissionMode;
  /**
   * The loosest mode `setMode` may switch to (managed settings' mode, or below `bypass` when
   * a layer disables it). Undefined: any.
   */
  maxMode?: PermissionMode;
  tools?: readonly string[];
  /**
   * More allow-lists a tool must also match: a workspace's own list, which may narrow the
   * user's but, without the user's consent, never replace it.
   */
  narrowTools?: readonly (readonly string[])[];
  rules: readonly RuleSpec[];
  workspace: string;
}

/** Rules of a PolicyOptions object, tagged with where they came from. */
export function rulesOf(options: PolicyOptions | undefined, origin: RuleOrigin): RuleSpec[] {
  if (!options) return [];
  const out: RuleSpec[] = [];
  for (const verdict of ["deny", "ask", "allow"] as const) {
    for (const pattern of options[verdict] ?? []) out.push({ verdict, pattern, origin });
  }
  return out;
}
