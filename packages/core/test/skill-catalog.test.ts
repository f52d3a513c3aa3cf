import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PluginError } from "../src/errors.js";
import { DefaultSkillCatalog } from "../src/skills/default-skill-catalog.js";
import type { SkillLayerProvider } from "../src/skills/skill-layer.js";

function layer(id: string): SkillLayerProvider {
  return {
    id,
    origin: `layer ${id}`,
    trusted: false,
    entries: () => [],
    readFile: async () => "",
  };
}

describe("the skill catalog", () => {
  it("adds, announces and removes layers through the registration it returns", () => {
    const catalog = new DefaultSkillCatalog();
    const events: string[] = [];
    for (const event of ["layer-added", "layer-changed", "layer-removed"] as const)
      catalog.on(event, ({ id }) => events.push(`${event} ${id}`));
    const docs = catalog.add(layer("mcp:docs"));
    assert.deepEqual(
      catalog.layers().map((each) => each.id),
      ["mcp:docs"],
    );
    docs.changed();
    docs.dispose();
    docs.dispose();
    docs.changed();
    assert.equal(catalog.get("mcp:docs"), undefined);
    assert.deepEqual(events, [
      "layer-added mcp:docs",
      "layer-changed mcp:docs",
      "layer-removed mcp:docs",
    ]);
  });

  it("refuses a second layer with an id already present, naming it", () => {
    const catalog = new DefaultSkillCatalog();
    catalog.add(layer("mcp:docs"));
    assert.throws(
      () => catalog.add(layer("mcp:docs")),
      (error: unknown) =>
        error instanceof PluginError &&
        error.code === "duplicate_skill_layer" &&
        error.message.includes('"mcp:docs"'),
    );
  });

  it("settles once pending work, also work added while waiting and work that fails, is done", async () => {
    const catalog = new DefaultSkillCatalog();
    const registration = catalog.add(layer("mcp:docs"));
    const done: string[] = [];
    let finishFirst!: () => void;
    registration.pending(
      new Promise<void>((resolve) => {
        finishFirst = resolve;
      }).then(() => {
        done.push("first");
        registration.pending(Promise.reject(new Error("listing failed")));
        registration.pending(
          new Promise((resolve) => setTimeout(resolve, 20)).then(() => done.push("second")),
        );
      }),
    );
    const settled = catalog.whenSettled().then(() => done.push("settled"));
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.deepEqual(done, [], "still waiting for the first listing");
    finishFirst();
    await settled;
    assert.deepEqual(done, ["first", "second", "settled"]);
  });
});
