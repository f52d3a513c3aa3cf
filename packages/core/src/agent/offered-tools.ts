import type { PolicyEngine } from "../policy/policy-engine.js";
import type { ToolRegistry } from "../registry/tool-registry.js";
import type { ToolDefinition } from "../tools/tool-definition.js";

/**
 * The model's tool list, rebuilt only when the registry changes (its version moves), not on
 * every turn.
 */
export class OfferedTools {
  private cachedVersion = -1;
  private cached: readonly ToolDefinition[] = [];

  constructor(
    private readonly registry: ToolRegistry,
    private readonly policy: PolicyEngine,
  ) {}

  current(): readonly ToolDefinition[] {
    if (this.registry.version !== this.cachedVersion) {
      this.cached = this.registry
        .definitions()
        .filter((definition) => this.policy.isOffered(definition));
      this.cachedVersion = this.registry.version;
    }
    return this.cached;
  }
}
