import type { Disposable } from "../util/disposable.js";
import type { SkillLayerProvider, SkillLayerRegistration } from "./skill-layer.js";

/** Typed change events of the catalog; the payload names the layer. */
export interface SkillCatalogEvents {
  "layer-added": [{ id: string }];
  "layer-changed": [{ id: string }];
  "layer-removed": [{ id: string }];
}

/**
 * The kernel's seam between plugins that bring skills from elsewhere (MCP servers) and the
 * plugin that offers skills to the model (Skills): the first add layers, the second reads them,
 * and neither imports the other. One catalog per agent, in its container under this token.
 */
export interface SkillCatalog {
  /**
   * Add a layer until the returned registration is disposed. A second layer with an id already
   * present throws `PluginError` `duplicate_skill_layer`.
   */
  add(layer: SkillLayerProvider): SkillLayerRegistration;
  /** Every layer, in the order added. */
  layers(): readonly SkillLayerProvider[];
  get(id: string): SkillLayerProvider | undefined;
  /** Resolves once no layer has work pending (see {@link SkillLayerRegistration.pending}). */
  whenSettled(): Promise<void>;
  on<E extends keyof SkillCatalogEvents>(
    event: E,
    listener: (...args: SkillCatalogEvents[E]) => void,
  ): Disposable;
}

/** DI token for {@link SkillCatalog}; `createAgent` registers a `DefaultSkillCatalog`. */
export const SkillCatalog = Symbol.for("@pseudoclaude/core:SkillCatalog");
