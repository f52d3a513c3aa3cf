import { PluginError } from "../errors.js";
import type { Plugin } from "./plugin.js";

/**
 * Order plugins so each comes after what it depends on, keeping the caller's order otherwise.
 * Duplicates, missing dependencies and cycles are programming errors: they throw.
 */
export function orderPlugins(plugins: readonly Plugin[]): Plugin[] {
  const byName = new Map<string, Plugin>();
  for (const plugin of plugins) {
    if (byName.has(plugin.name)) {
      throw new PluginError("duplicate_plugin", `Plugin "${plugin.name}" is listed twice.`, {
        details: { plugin: plugin.name },
      });
    }
    byName.set(plugin.name, plugin);
  }
  for (const plugin of plugins) {
    for (const dependency of plugin.dependsOn) {
      if (!byName.has(dependency)) {
        throw new PluginError(
          "missing_dependency",
          `Plugin "${plugin.name}" depends on "${dependency}", which is not in the plugin list.`,
          { details: { plugin: plugin.name, dependency } },
        );
      }
    }
  }
  const ordered: Plugin[] = [];
  const state = new Map<string, "visiting" | "done">();
  const visit = (plugin: Plugin, chain: string[]) => {
    const current = state.get(plugin.name);
    if (current === "done") return;
    if (current === "visiting") {
      const cycle = [...chain.slice(chain.indexOf(plugin.name)), plugin.name].join(" -> ");
      throw new PluginError(
        "dependency_cycle",
        `Plugin "${plugin.name}" is part of a dependency cycle: ${cycle}.`,
        {
          details: { plugin: plugin.name, cycle },
        },
      );
    }
    state.set(plugin.name, "visiting");
    for (const dependency of plugin.dependsOn)
      visit(byName.get(dependency)!, [...chain, plugin.name]);
    state.set(plugin.name, "done");
    ordered.push(plugin);
  };
  for (const plugin of plugins) visit(plugin, []);
  return ordered;
}
