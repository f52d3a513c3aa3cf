import { resolveAgentModel } from "@pseudoclaude/compat-claude-code";
import { definePlugin, type Plugin, type SubAgentSpec, subAgent } from "@pseudoclaude/core";
import { type AgentFile, loadAgentFiles } from "./agent-files.js";

export const AGENTS_PLUGIN_NAME = "agents";

export interface AgentsPluginOptions {
  /** Where the user's agent folders are. Default: the user's home. */
  homeDir?: string | undefined;
}

/**
 * Sub-agents from Markdown files with YAML front matter (`name`, `description`, `tools`,
 * `model`), the format Claude Code users keep in `.claude/agents/`: each becomes the tool
 * `agent__<name>` of the agent. A project file runs on the user's tools, so it is used only
 * once the user approved it, like a project MCP server.
 */
export function agents(options: AgentsPluginOptions = {}): Plugin {
  return definePlugin({
    name: AGENTS_PLUGIN_NAME,
    trust: {
      widening: [
        {
          setting: ".claude/agents/*.md, .PseudoClaude/agents/*.md",
          kind: "sub_agent",
          effect: "runs the repository's instructions as a sub-agent on your tools",
        },
      ],
      requests: ({ workspace, homeDir }) =>
        loadAgentFiles(workspace, () => undefined, options.homeDir ?? homeDir).flatMap((file) =>
          file.approval ? [file.approval] : [],
        ),
    },
    register(context) {
      const files = loadAgentFiles(
        context.workspace,
        (diagnostic) => context.report(diagnostic),
        options.homeDir,
      );
      for (const file of files) {
        if (file.approval && !context.consent.isApproved(file.approval)) {
          context.report({
            stage: "config",
            severity: "info",
            code: "agent_needs_approval",
            file: file.file,
            item: file.approval.name,
            message: `Project agent "${file.name}" comes with the workspace and is not approved, so it is not offered. Approve it with: pseudoclaude agents approve ${file.name}`,
          });
          continue;
        }
        // Registered as part of this plugin: the sub-agent's tool source is this plugin's.
        void subAgent({
          name: file.name,
          description: file.description,
          instructions: file.instructions,
          ...(file.tools ? { tools: file.tools } : {}),
          ...(file.maxTurns !== undefined ? { maxTurns: file.maxTurns } : {}),
          ...modelOf(file),
        }).register(context);
      }
    },
  });
}

/**
 * The model of an agent file's sub-agent: an id as written; an alias chosen when the sub-agent
 * starts, because what `sonnet` means depends on the parent's provider; otherwise the parent's.
 */
function modelOf(file: Pick<AgentFile, "modelChoice">): Pick<SubAgentSpec, "model"> {
  const choice = file.modelChoice;
  if (choice.kind === "id") return { model: choice.id };
  if (choice.kind === "alias") return { model: (parent) => resolveAgentModel(choice, parent) };
  return {};
}
