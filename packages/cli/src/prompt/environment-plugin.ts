import { definePlugin, type Plugin } from "@pseudoclaude/core";
import { environmentText } from "./environment.js";
import type { GitState } from "./git-state.js";

export const ENVIRONMENT_PLUGIN_NAME = "environment";
/** Right after the base prompt, before the instruction files (20). */
const ENVIRONMENT_ORDER = 10;

/**
 * The environment's facts as a system prompt section rather than part of the base: sub-agents
 * share the sections, so they too know where and when they work, as Claude Code's sub-agents
 * get the environment with their own prompt. `git` is read while the agent is assembled.
 */
export function environmentPlugin(
  git: Promise<GitState>,
  now: () => Date = () => new Date(),
): Plugin {
  return definePlugin({
    name: ENVIRONMENT_PLUGIN_NAME,
    async register(context) {
      context.addSystemPromptSection({
        id: "environment",
        source: "pseudoclaude",
        title: "Environment",
        content: environmentText(context.workspace, await git, now()),
        order: ENVIRONMENT_ORDER,
      });
    },
  });
}
