import type { Tool } from "../contracts/tool.js";
import { PROVIDER_SECTION_PLUGIN, providerSectionPlugin } from "../provider/provider-section.js";
import { inlineToolsPlugin } from "./inline-tools-plugin.js";
import type { Plugin } from "./plugin.js";
import { orderPlugins } from "./plugin-order.js";

/**
 * The plugins an agent registers, in dependency order: the caller's, plus the ones its
 * options imply: a source for tools given inline, and, when a provider is chosen by name, the
 * plugin that claims and checks the `provider` section (unless the caller brought it).
 */
export function agentPlugins(
  plugins: readonly Plugin[],
  tools: readonly Tool[] | undefined,
  choosesProvider: boolean,
): Plugin[] {
  return orderPlugins([
    ...(tools && tools.length > 0 ? [inlineToolsPlugin(tools)] : []),
    ...(choosesProvider && !plugins.some((plugin) => plugin.name === PROVIDER_SECTION_PLUGIN)
      ? [providerSectionPlugin()]
      : []),
    ...plugins,
  ]);
}
