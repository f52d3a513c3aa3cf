import { definePlugin, type Plugin } from "@pseudoclaude/core";
import { providerSectionPlugin } from "@pseudoclaude/core/provider";
import { agents } from "@pseudoclaude/plugin-agents";
import { builtinTools } from "@pseudoclaude/plugin-builtin-tools";
import { type CodeModeMode, codeMode } from "@pseudoclaude/plugin-code-mode";
import { hooks } from "@pseudoclaude/plugin-hooks";
import { mcp } from "@pseudoclaude/plugin-mcp";
import { skills } from "@pseudoclaude/plugin-skills";
import { type InstructionsOptions, instructions } from "./instructions/instructions-plugin.js";

/** What a command changes in the default plugins. */
export interface DefaultPluginOptions {
  /**
   * The command renders MCP Apps (`studio`): the MCP plugin tells servers so (the
   * `io.modelcontextprotocol/ui` extension), and servers may then offer their app views.
   */
  mcpAppHost?: boolean | undefined;
  /** The gateway's own plugin (`serve --mcp`), which reads and checks the `gateway` section. */
  gateway?: Plugin | undefined;
  /** What the instruction files plugin reads (`--no-instructions`: `{ enabled: false }`). */
  instructions?: InstructionsOptions | undefined;
  /** `--code-mode`, over the config's `code_mode`. */
  codeMode?: CodeModeMode | undefined;
}

/**
 * The `gateway` section belongs to `serve --mcp`; every other command leaves it alone rather
 * than warn that nobody reads it. The gateway's plugin checks it when it serves.
 */
function gatewaySectionClaim(): Plugin {
  return definePlugin({
    name: "gateway",
    register(context) {
      context.config.section("gateway");
    },
  });
}

/**
 * The plugins every `pseudoclaude` command starts with, before any `--plugin`. A function so
 * each agent gets fresh instances.
 */
export function defaultPlugins(options: DefaultPluginOptions = {}): Plugin[] {
  return [
    mcp(options.mcpAppHost ? { appHost: {} } : {}),
    builtinTools(),
    skills(),
    hooks(),
    agents(),
    instructions(options.instructions),
    // Off unless the config or --code-mode asks: the CLI offers the model no new tool unasked.
    codeMode({ defaultMode: "off", ...(options.codeMode ? { mode: options.codeMode } : {}) }),
    providerSectionPlugin(),
    options.gateway ?? gatewaySectionClaim(),
  ];
}
