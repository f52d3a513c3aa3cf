import { definePlugin, type Plugin, Provider } from "@pseudoclaude/core";
import type { AnthropicOptions } from "./anthropic-options.js";
import { anthropic } from "./anthropic-provider.js";

/**
 * The provider as a plugin, for hosts that compose agents from plugin lists: it registers the
 * Provider token (a `provider` passed to createAgent still wins). The key is checked when the
 * agent is created.
 */
export function anthropicPlugin(options: AnthropicOptions = {}): Plugin {
  return definePlugin({
    name: "provider-anthropic",
    register(context) {
      context.container.registerInstance(Provider, anthropic(options));
    },
  });
}
