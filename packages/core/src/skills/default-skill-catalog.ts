import { EventEmitter } from "eventemitter3";
import { PluginError } from "../errors.js";
import { type Disposable, toDisposable } from "../util/disposable.js";
import type { SkillCatalog, SkillCatalogEvents } from "./skill-catalog.js";
import type { SkillLayerProvider, SkillLayerRegistration } from "./skill-layer.js";

/** The catalog `createAgent` puts in every agent's container: a list of layers and events. */
export class DefaultSkillCatalog implements SkillCatalog {
  private readonly events = new EventEmitter<SkillCatalogEvents>();
  private readonly byId = new Map<string, SkillLayerProvider>();
  private readonly inFlight = new Set<Promise<unknown>>();

  add(layer: SkillLayerProvider): SkillLayerRegistration {
    if (this.byId.has(layer.id))
      throw new PluginError(
        "duplicate_skill_layer",
        `A skill layer "${layer.id}" is in the catalog already.`,
        { details: { layer: layer.id } },
      );
    this.byId.set(layer.id, layer);
    this.events.emit("layer-added", { id: layer.id });
    let gone = false;
    const removal = toDisposable(() => {
      gone = true;
      if (this.byId.get(layer.id) !== layer) return;
      this.byId.delete(layer.id);
      this.events.emit("layer-removed", { id: layer.id });
    });
    return {
      dispose: () => removal.dispose(),
      changed: () => {
        if (!gone) this.events.emit("layer-changed", { id: layer.id });
      },
      pending: (work) => {
        // Failures are the layer's to report; here they only end the wait.
        const settled = work.then(
          () => undefined,
          () => undefined,
        );
        this.inFlight.add(settled);
        void settled.then(() => this.inFlight.delete(settled));
      },
    };
  }

  layers(): readonly SkillLayerProvider[] {
    return [...this.byId.values()];
  }

  get(id: string): SkillLayerProvider | undefined {
    return this.byId.get(id);
  }

  async whenSettled(): Promise<void> {
    // Work added while waiting (a layer listing again) is waited for too.
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  on<E extends keyof SkillCatalogEvents>(
    event: E,
    listener: (...args: SkillCatalogEvents[E]) => void,
  ): Disposable {
    this.events.on(event, listener as never);
    return toDisposable(() => this.events.off(event, listener as never));
  }
}
