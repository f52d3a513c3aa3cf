import type { Provider } from "../contracts/provider.js";

/**
 * Holder of the agent's provider. Plugins that need the model (MCP sampling) resolve this
 * instead of the provider itself, because the provider may be set after they register.
 */
export interface ProviderRef {
  provider: Provider | undefined;
}
