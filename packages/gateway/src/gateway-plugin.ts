import { ConfigError, definePlugin, formatDiagnostic, type Plugin } from "@pseudoclaude/core";
import {
  GATEWAY_SECTION_SPEC,
  type GatewayOptions,
  type GatewaySettings,
  loadGatewaySettings,
} from "./gateway-section.js";

/** DI token of the gateway's settings, as the plugin read them. */
export const GatewaySettingsToken = Symbol.for("@pseudoclaude/gateway:GatewaySettings");

/** The plugin's name. */
export const GATEWAY_PLUGIN_NAME = "gateway";

/**
 * Reads the `gateway` config section (over `options`) when the agent is made: a mistake in it
 * stops the agent, since `expose` is what keeps tools from clients.
 */
export function gatewayPlugin(options: GatewayOptions = {}): Plugin {
  return definePlugin({
    name: GATEWAY_PLUGIN_NAME,
    sections: [GATEWAY_SECTION_SPEC],
    register(context) {
      const { settings, diagnostics } = loadGatewaySettings(context.config, options);
      for (const diagnostic of diagnostics) context.report(diagnostic);
      const errors = diagnostics.filter((diagnostic) => diagnostic.severity === "error");
      if (errors.length > 0)
        throw new ConfigError(
          "config_invalid",
          `The gateway section has ${errors.length === 1 ? "a mistake" : `${errors.length} mistakes`}; nothing is served until it is fixed:\n${errors.map((error) => `  ${formatDiagnostic(error)}`).join("\n")}`,
        );
      context.container.register<GatewaySettings>(GatewaySettingsToken, { useValue: settings });
    },
  });
}
