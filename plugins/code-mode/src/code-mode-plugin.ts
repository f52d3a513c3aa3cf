import { definePlugin, type Plugin, PolicyEngine, type ToolDefinition } from "@pseudoclaude/core";
import { reportUnknownOptions, StaticToolSource, ToolRegistry } from "@pseudoclaude/core/plugin";
import {
  CODE_MODE_SECTION_SPEC,
  type CodeModeMode,
  readCodeModeSection,
} from "./code-mode-section.js";
import { CODE_MODE_SOURCE, codeTool } from "./code-tool.js";
import { CODE_TOOL_NAME, codeToolDescription } from "./code-tool-description.js";
import { renderToolDeclarations, toolNamespaces } from "./declarations/index.js";
import { declaredTools, wantsCodeMode } from "./declared-tools.js";
import { DEFAULT_SANDBOX_LIMITS, type SandboxLimits, warmSandbox } from "./sandbox/index.js";

export const CODE_MODE_PLUGIN_NAME = "code-mode";

export interface CodeModeOptions {
  /** Over the config's `code_mode`. */
  mode?: CodeModeMode | undefined;
  /** When neither `mode` nor the config sets one. Default `on`: adding the plugin asks for it. */
  defaultMode?: CodeModeMode | undefined;
  /** Over the config's limits, each. */
  limits?: Partial<SandboxLimits> | undefined;
  /** Characters of tool declarations in the tool's description; past it, tools are named only. */
  maxDeclarationChars?: number | undefined;
}

const OPTION_KEYS = ["mode", "defaultMode", "limits", "maxDeclarationChars"] as const;

/**
 * Code mode: a `code_mode` tool whose program calls the agent's tools as async functions in a
 * WebAssembly sandbox (QuickJS), each call decided by the policy, approved, hooked, traced,
 * recorded and journaled like the model's own. Its description declares the loaded tools, kept
 * up to date as tools come and go.
 */
export function codeMode(options: CodeModeOptions = {}): Plugin {
  return definePlugin({
    name: CODE_MODE_PLUGIN_NAME,
    sections: [CODE_MODE_SECTION_SPEC],
    register(context) {
      reportUnknownOptions(context, options, OPTION_KEYS, "codeMode()");
      const settings = readCodeModeSection(context.config, (diagnostic) =>
        context.report(diagnostic),
      );
      const mode = options.mode ?? settings.mode ?? options.defaultMode ?? "on";
      if (mode === "off") return;
      const limits = limitsOf(settings, options.limits);
      const registry = context.container.resolve<ToolRegistry>(ToolRegistry);
      const policy = context.container.resolve<PolicyEngine>(PolicyEngine);
      const source = new StaticToolSource(CODE_MODE_SOURCE, []);
      let shown: string | undefined;
      // The description for a set of declared tools; places in the program's `tools` object come
      // from every tool it may call, as when it runs, so a declared tool is where it will be.
      const describe = (declared: readonly ToolDefinition[]) => {
        const callable = registry
          .definitions()
          .filter((tool) => !tool.innerCalls && policy.isOffered(tool))
          .map((tool) => tool.name);
        const tools = declared.filter((tool) => !tool.innerCalls);
        const names = new Set(tools.map((tool) => tool.name));
        // Only the declared tools' places: the others are reached with callTool, unnamed here.
        const namespaces = Object.fromEntries(
          Object.entries(toolNamespaces(callable)).filter(([, name]) => names.has(name)),
        );
        const { text, omitted } = renderToolDeclarations(tools, {
          namespaces,
          ...(options.maxDeclarationChars !== undefined
            ? { maxChars: options.maxDeclarationChars }
            : {}),
        });
        return codeToolDescription(text, omitted, limits);
      };
      // Recomputed as tools come and go (for `auto`, and for the registered description, which
      // lists what would be sent up front); our own upsert changes nothing, so it stops there.
      // What a request carries is described by what is sent with it (`offeredDefinition`).
      const refresh = () => {
        const tools = declaredTools(registry.definitions(), policy);
        const wanted = mode === "on" || wantsCodeMode(tools);
        if (!wanted) {
          if (shown !== undefined) source.remove(CODE_TOOL_NAME);
          shown = undefined;
          return;
        }
        const description = describe(tools);
        if (description === shown) return;
        // The first program comes after a model's answer at the soonest: the sandbox's worker
        // starts meanwhile, off the agent's thread, so that program does not wait for it.
        if (shown === undefined) void warmSandbox().catch(() => undefined);
        shown = description;
        source.upsert(codeTool(description, limits, describe));
      };
      registry.on("changed", refresh);
      context.onClose(() => void registry.off("changed", refresh));
      refresh();
      context.addToolSource(source);
    },
  });
}

function limitsOf(
  settings: ReturnType<typeof readCodeModeSection>,
  code: Partial<SandboxLimits> | undefined,
): SandboxLimits {
  const fromConfig: Partial<SandboxLimits> = {};
  if (settings.memory_mb !== undefined) fromConfig.memoryBytes = settings.memory_mb * 2 ** 20;
  if (settings.cpu_ms !== undefined) fromConfig.cpuMs = settings.cpu_ms;
  if (settings.wall_ms !== undefined) fromConfig.wallMs = settings.wall_ms;
  if (settings.max_calls !== undefined) fromConfig.maxCalls = settings.max_calls;
  if (settings.max_concurrent_calls !== undefined)
    fromConfig.maxConcurrentCalls = settings.max_concurrent_calls;
  if (settings.max_result_kb !== undefined)
    fromConfig.maxResultBytes = settings.max_result_kb * 1024;
  if (settings.max_log_kb !== undefined) fromConfig.maxLogBytes = settings.max_log_kb * 1024;
  return { ...DEFAULT_SANDBOX_LIMITS, ...fromConfig, ...code };
}
