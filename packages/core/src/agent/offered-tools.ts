import type { PolicyEngine } from "../policy/policy-engine.js";
import type { ToolRegistry } from "../registry/tool-registry.js";
import type { ToolDefinition } from "../tools/tool-definition.js";

/**
 * The model's tool list, rebuilt only when the registry or the policy's layers change (a
 * version moves), not on every turn.
 */
export class OfferedTools {
  private cachedVersion = "";
  private cached: readonly ToolDefinition[] = [];

  constructor(
    private readonly registry: ToolRegistry,
    private readonly policy: PolicyEngine,
    private readonly layers: { readonly version: number },
  ) {}

  current(): readonly ToolDefinition[] {
    // The mode decides what is offered too (plan mode hides side-effect tools).
    const version = `${this.registry.version}:${this.layers.version}:${this.policy.mode}`;
    if (version !== this.cachedVersion) {
      this.cached = this.registry
        .definitions()
        .filter((definition) => this.policy.isOffered(definition));
      this.cachedVersion = version;
    }
    return this.cached;
  }
}
