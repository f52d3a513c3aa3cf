import { access } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { definePlugin, type Plugin } from "@pseudoclaude/core";
import { errorMessage } from "@pseudoclaude/core/plugin";
import { CliConfigError } from "./cli-errors.js";

/**
 * Import `--plugin` modules. Each module's default export, or else its `plugin` or `plugins`
 * export, must be a Plugin or a list of Plugins. Paths are relative to `cwd`.
 */
export async function loadPluginModules(paths: readonly string[], cwd: string): Promise<Plugin[]> {
  const plugins: Plugin[] = [];
  for (const given of paths) plugins.push(...(await loadPluginModule(given, cwd)));
  return plugins;
}

async function loadPluginModule(given: string, cwd: string): Promise<Plugin[]> {
  const file = path.resolve(cwd, given);
  try {
    await access(file);
  } catch {
    throw pluginLoadError(given, `file ${file} does not exist`);
  }
  let exports: Record<string, unknown>;
  try {
    exports = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    throw pluginLoadError(given, `import failed: ${errorMessage(error)}`, error);
  }
  const exported = exports.default ?? exports.plugin ?? exports.plugins;
  if (exported === undefined) {
    throw pluginLoadError(given, 'it has no default, "plugin" or "plugins" export');
  }
  const candidates = Array.isArray(exported) ? exported : [exported];
  return candidates.map((candidate) => asPlugin(candidate, given));
}

/** Re-declare through definePlugin so a hand-written object gets the same checks. */
function asPlugin(candidate: unknown, given: string): Plugin {
  if (!candidate || typeof candidate !== "object") {
    throw pluginLoadError(given, "the export is not a plugin (use definePlugin)");
  }
  const spec = candidate as Partial<Plugin>;
  // Keep `this` for plugins written as class instances.
  const register =
    typeof spec.register === "function" ? spec.register.bind(candidate) : spec.register;
  try {
    return definePlugin({
      name: spec.name as string,
      dependsOn: spec.dependsOn ?? [],
      register: register as Plugin["register"],
      // What the plugin declares about its sections and its widening settings is kept, so
      // `config` merges its section and `trust` lists what it asks for.
      ...(spec.trust !== undefined ? { trust: spec.trust } : {}),
      ...(spec.sections !== undefined ? { sections: spec.sections } : {}),
    });
  } catch (error) {
    throw pluginLoadError(given, errorMessage(error), error);
  }
}

function pluginLoadError(given: string, why: string, cause?: unknown): CliConfigError {
  return new CliConfigError("plugin_load_failed", `Cannot load --plugin ${given}: ${why}.`, {
    details: { plugin: given },
    cause,
  });
}
