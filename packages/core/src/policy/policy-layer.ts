import type {
  PermissionMode,
  PolicyDecision,
  PolicyEngine,
  RuleOrigin,
} from "../contracts/policy-engine.js";
import type { ToolDefinition } from "../contracts/tool-definition.js";
import { ConfigError } from "../errors.js";
import { isToolSearchTool } from "../tool-search/search-tool.js";
import { type Disposable, toDisposable } from "../util/disposable.js";
import { argumentMatches, parseRulePattern, type RulePattern } from "./rule-pattern.js";

/**
 * A temporary addition to the policy while something is active, such as a loaded skill. A
 * layer can pre-approve calls and narrow what exists; it can never widen past a deny rule,
 * plan mode or the agent allow-list, because it only acts on what the engine decided.
 */
export interface PolicyLayer {
  /** Who added it, shown in decisions: `skill:release-notes`. */
  origin: RuleOrigin;
  /**
   * Rule patterns (`run_command(git log*)`, `read_file`) pre-approved while the layer is on: a
   * call the engine would ask about runs without asking. A call the engine denies stays denied,
   * and so does one an explicit `ask` rule asks about.
   */
  allow?: readonly string[];
  /**
   * When set, only tools matching one of these patterns are offered and callable while the
   * layer is on (with several such layers, a tool one of them names). Everything else is denied.
   */
  only?: readonly string[];
}

interface CompiledLayer {
  origin: RuleOrigin;
  allow: RulePattern[];
  only: RulePattern[] | undefined;
}

/**
 * The layers plugins add at run time, over whatever engine decides. Kept outside the engine
 * so they work the same over the default engine and over one a user brings.
 */
export class PolicyLayers {
  private readonly layers = new Set<CompiledLayer>();
  private currentVersion = 0;

  constructor(private readonly workspace: string) {}

  /** Bumped on every add and remove; caches of the offered tools compare it. */
  get version(): number {
    return this.currentVersion;
  }

  /** Add a layer; a pattern that does not parse throws `ConfigError` `invalid_rule`. */
  add(layer: PolicyLayer): Disposable {
    const compiled: CompiledLayer = {
      origin: layer.origin,
      allow: (layer.allow ?? []).map((pattern) => parseRulePattern(pattern)),
      only: layer.only?.map((pattern) => parseRulePattern(pattern)),
    };
    if (typeof layer.origin !== "string" || layer.origin === "") {
      throw new ConfigError("invalid_rule", "A policy layer needs an origin (who added it).");
    }
    this.layers.add(compiled);
    this.currentVersion += 1;
    return toDisposable(() => {
      if (this.layers.delete(compiled)) this.currentVersion += 1;
    });
  }

  /** False when a narrowing layer is on and none of them names the tool. */
  isOffered(tool: ToolDefinition): boolean {
    const narrowing = this.narrowing();
    if (narrowing.length === 0 || isToolSearchTool(tool)) return true;
    return narrowing.some((layer) => layer.only.some((pattern) => pattern.matchesTool(tool)));
  }

  /** The engine's decision as the layers change it (see {@link PolicyLayer}). */
  refine(decision: PolicyDecision, tool: ToolDefinition, args: unknown): PolicyDecision {
    if (decision.verdict === "deny" || this.layers.size === 0) return decision;
    const narrowing = this.narrowing();
    if (narrowing.length > 0 && !isToolSearchTool(tool)) {
      const admitted = narrowing.some((layer) =>
        layer.only.some((pattern) => this.matches(pattern, tool, args)),
      );
      if (!admitted) {
        const origins = narrowing.map((layer) => layer.origin);
        const patterns = narrowing.flatMap((layer) => layer.only.map((pattern) => pattern.raw));
        return {
          verdict: "deny",
          reason: `While ${origins.join(", ")} ${origins.length === 1 ? "is" : "are"} active, only ${patterns.map((p) => `"${p}"`).join(", ")} may run; "${tool.name}" with these arguments is not among them.`,
          matched: { kind: "layer", effect: "only", origin: origins.join(", "), patterns },
        };
      }
    }
    // Only the engine's default question is pre-approved: an explicit ask rule still asks, and
    // so does a command a deny rule cannot rule out.
    if (
      decision.verdict !== "ask" ||
      decision.matched.kind === "rule" ||
      decision.matched.kind === "unclear_command"
    )
      return decision;
    for (const layer of this.layers) {
      const pattern = layer.allow.find((candidate) => this.matches(candidate, tool, args));
      if (pattern) {
        return {
          verdict: "allow",
          reason: `Pre-approved by ${layer.origin}: "${pattern.raw}" matches "${tool.name}".`,
          matched: {
            kind: "layer",
            effect: "allow",
            origin: layer.origin,
            patterns: [pattern.raw],
          },
        };
      }
    }
    return decision;
  }

  private narrowing(): Array<CompiledLayer & { only: RulePattern[] }> {
    return [...this.layers].filter(
      (layer): layer is CompiledLayer & { only: RulePattern[] } => layer.only !== undefined,
    );
  }

  private matches(pattern: RulePattern, tool: ToolDefinition, args: unknown): boolean {
    // Strict, like allow rules: a compound or substituted command matches no pattern.
    return pattern.matchesTool(tool) && argumentMatches(pattern, tool, args, this.workspace, true);
  }
}

/** An engine with the layers on top: what the agent asks. */
export class LayeredPolicyEngine implements PolicyEngine {
  constructor(
    private readonly engine: PolicyEngine,
    readonly layers: PolicyLayers,
  ) {}

  get mode() {
    return this.engine.mode;
  }

  decide(tool: ToolDefinition, args: unknown): PolicyDecision | Promise<PolicyDecision> {
    const decision = this.engine.decide(tool, args);
    // No extra turn of the event loop for an engine that decides synchronously.
    return decision instanceof Promise
      ? decision.then((settled) => this.layers.refine(settled, tool, args))
      : this.layers.refine(decision, tool, args);
  }

  isOffered(tool: ToolDefinition): boolean {
    return this.engine.isOffered(tool) && this.layers.isOffered(tool);
  }

  /** Present only when the engine can switch modes. */
  get setMode(): ((mode: PermissionMode) => void) | undefined {
    const { engine } = this;
    return engine.setMode ? (mode) => engine.setMode?.(mode) : undefined;
  }
}
