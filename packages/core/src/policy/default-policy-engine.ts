import picomatch from "picomatch";
import {
  MANAGED_RULE_ORIGIN,
  PERMISSION_MODES,
  type PermissionMode,
  type PolicyDecision,
  type PolicyEngine,
  type RuleOrigin,
  type Verdict,
} from "../contracts/policy-engine.js";
import type { ToolDefinition } from "../contracts/tool-definition.js";
import { ConfigError } from "../errors.js";
import { isToolSearchTool } from "../tool-search/search-tool.js";
import { MODE_REACH } from "./mode-limits.js";
import type { PolicySettings, RuleSpec } from "./policy-settings.js";
import {
  argumentMatches,
  argumentUnclearForDeny,
  parseRulePattern,
  type RulePattern,
} from "./rule-pattern.js";

interface CompiledRule {
  verdict: Verdict;
  origin: RuleOrigin;
  pattern: RulePattern;
}

/** The same for every call, so one frozen decision serves them all (no object per call). */
const BYPASS_ALLOWS: PolicyDecision = Object.freeze({
  verdict: "allow",
  reason: "Bypass mode allows every tool that no deny rule matches.",
  matched: Object.freeze({ kind: "mode", mode: "bypass" }),
} as const);

/**
 * The default engine. Order of precedence (first that applies wins):
 *  1. not in the agent allow-list            -> deny
 *  2. a deny rule matches (any origin)       -> deny   (deny always wins)
 *  3. plan mode and a side-effect tool       -> deny
 *  3b. a deny rule cannot rule out a command
 *      that builds what it runs (`$(...)`)   -> ask    (also in bypass mode)
 *  3c. a managed ask rule matches            -> ask    (also in bypass mode: no other
 *      layer may loosen an administrator's rule)
 *  4. bypass mode                            -> allow
 *  5. an ask rule matches                    -> ask
 *  6. an allow rule matches                  -> allow
 *  7. read-only tool                         -> allow
 *  8. accept_edits mode and an edit tool     -> allow
 *  9. anything else                          -> ask
 * Rules that fail to parse are reported when settings are built (see `compilePolicyRules`).
 */
export class DefaultPolicyEngine implements PolicyEngine {
  private readonly rules: CompiledRule[];
  /** The agent allow-list and the lists narrowing it: a tool must match every one. */
  private readonly allowLists: Array<{ patterns: readonly string[]; test(name: string): boolean }>;
  private currentMode: PermissionMode;

  constructor(private readonly settings: PolicySettings) {
    this.rules = compilePolicyRules(settings.rules).rules;
    this.allowLists = [settings.tools, ...(settings.narrowTools ?? [])]
      .filter((list): list is readonly string[] => list !== undefined)
      .map((patterns) => ({ patterns, test: picomatch([...patterns], { dot: true }) }));
    this.currentMode = settings.mode;
  }

  get mode(): PermissionMode {
    return this.currentMode;
  }

  setMode(mode: PermissionMode): void {
    if (!(PERMISSION_MODES as readonly string[]).includes(mode))
      throw new ConfigError(
        "config_invalid",
        `Unknown permission mode "${mode}" (modes: ${PERMISSION_MODES.join(", ")}).`,
      );
    const max = this.settings.maxMode;
    if (max !== undefined && MODE_REACH[mode] > MODE_REACH[max])
      throw new ConfigError(
        "config_invalid",
        `Mode "${mode}" is not allowed here: the configuration allows at most "${max}" (managed settings, or bypass mode disabled).`,
        { details: { mode, maxMode: max } },
      );
    this.currentMode = mode;
  }

  isOffered(tool: ToolDefinition): boolean {
    if (!isToolSearchTool(tool) && this.allowLists.some((list) => !list.test(tool.name)))
      return false;
    if (this.mode === "plan" && tool.safety !== "read_only") return false;
    // A deny rule on the bare name removes the tool entirely; one with an argument part does not.
    return !this.rules.some(
      (rule) =>
        rule.verdict === "deny" &&
        rule.pattern.argument === undefined &&
        rule.pattern.matchesTool(tool),
    );
  }

  decide(tool: ToolDefinition, args: unknown): PolicyDecision {
    const outside = isToolSearchTool(tool)
      ? undefined
      : this.allowLists.find((list) => !list.test(tool.name));
    if (outside) {
      return {
        verdict: "deny",
        reason: `"${tool.name}" is not in this agent's tool allow-list.`,
        matched: { kind: "allow_list", patterns: [...outside.patterns] },
      };
    }
    const deny = this.firstMatch("deny", tool, args);
    if (deny) return ruleDecision(deny, tool);
    if (this.mode === "plan" && tool.safety !== "read_only") {
      return {
        verdict: "deny",
        reason: `Plan mode allows only read-only tools; "${tool.name}" may have side effects.`,
        matched: { kind: "mode", mode: "plan" },
      };
    }
    const unclear = this.rules.find(
      (rule) =>
        rule.verdict === "deny" &&
        rule.pattern.matchesTool(tool) &&
        argumentUnclearForDeny(rule.pattern, tool, args),
    );
    if (unclear) {
      return {
        verdict: "ask",
        reason: `Rule deny: "${unclear.pattern.raw}" (${unclear.origin}) could match what this command builds when it runs; it needs a person to look.`,
        matched: { kind: "unclear_command", pattern: unclear.pattern.raw, origin: unclear.origin },
      };
    }
    if (this.mode === "bypass") {
      const managed = this.firstMatch("ask", tool, args, MANAGED_RULE_ORIGIN);
      return managed ? ruleDecision(managed, tool) : BYPASS_ALLOWS;
    }
    const ask = this.firstMatch("ask", tool, args);
    if (ask) return ruleDecision(ask, tool);
    const allow = this.firstMatch("allow", tool, args);
    if (allow) return ruleDecision(allow, tool);
    if (tool.safety === "read_only") {
      return {
        verdict: "allow",
        reason: `"${tool.name}" is read-only.`,
        matched: { kind: "safety", safety: "read_only" },
      };
    }
    if (this.mode === "accept_edits" && tool.category === "edit") {
      return {
        verdict: "allow",
        reason: `accept_edits mode allows file edits such as "${tool.name}".`,
        matched: { kind: "mode", mode: "accept_edits" },
      };
    }
    return {
      verdict: "ask",
      reason: `"${tool.name}" may have side effects and no rule allows it.`,
      matched: { kind: "safety", safety: "side_effect" },
    };
  }

  private firstMatch(
    verdict: Verdict,
    tool: ToolDefinition,
    args: unknown,
    origin?: string,
  ): CompiledRule | undefined {
    const strict = verdict !== "deny";
    return this.rules.find(
      (rule) =>
        rule.verdict === verdict &&
        (origin === undefined || rule.origin === origin) &&
        rule.pattern.matchesTool(tool) &&
        argumentMatches(rule.pattern, tool, args, this.settings.workspace, strict),
    );
  }
}

function ruleDecision(rule: CompiledRule, tool: ToolDefinition): PolicyDecision {
  return {
    verdict: rule.verdict,
    reason: `Rule ${rule.verdict}: "${rule.pattern.raw}" (${rule.origin}) matches "${tool.name}".`,
    matched: {
      kind: "rule",
      verdict: rule.verdict,
      pattern: rule.pattern.raw,
      origin: rule.origin,
    },
  };
}

/** Parse rule strings; bad ones are returned with their error instead of throwing. */
export function compilePolicyRules(specs: readonly RuleSpec[]): {
  rules: CompiledRule[];
  errors: Array<{ spec: RuleSpec; message: string }>;
} {
  const rules: CompiledRule[] = [];
  const errors: Array<{ spec: RuleSpec; message: string }> = [];
  for (const spec of specs) {
    try {
      rules.push({
        verdict: spec.verdict,
        origin: spec.origin,
        pattern: parseRulePattern(spec.pattern),
      });
    } catch (error) {
      errors.push({ spec, message: error instanceof Error ? error.message : String(error) });
    }
  }
  return { rules, errors };
}

/** Create the default engine without a container. */
export function createPolicyEngine(settings: PolicySettings): DefaultPolicyEngine {
  return new DefaultPolicyEngine(settings);
}
