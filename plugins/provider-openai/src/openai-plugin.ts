import { definePlugin, type Plugin, Provider } from "@pseudoclaude/core";
import type { OpenAIOptions } from "./openai-options.js";
import { openai } from "./openai-provider.js";

/**
 * The provider as a plugin, for hosts that compose agents from plugin lists: it registers the
 * Provider token (a `provider` passed to createAgent still wins). The key is checked when the
 * agent is created.
 */
export function openaiPlugin(options: OpenAIOptions = {}): Plugin {
  return definePlugin({
    name: "provider-openai",
    register(context) {
      context.container.registerInstance(Provider, openai(options));
    },
  });
}
