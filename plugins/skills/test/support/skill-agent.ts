import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { type Agent, type CreateAgentOptions, createAgent } from "@pseudoclaude/core";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import {
  type SkillsManager as Manager,
  SkillsManager,
  type SkillsOptions,
  skills,
} from "../../src/index.js";

export interface SkillAgent {
  agent: Agent;
  manager: Manager;
}

/** An agent with the Skills plugin over a workspace, its config read with the fake home. */
export async function skillAgent(
  workspace: TempWorkspace,
  options: SkillsOptions = {},
  agentOptions: Omit<CreateAgentOptions, "workspace"> = {},
): Promise<SkillAgent> {
  const agent = await createAgent({
    workspace: workspace.root,
    config: { homeDir: workspace.home },
    ...agentOptions,
    plugins: [
      skills({ homeDir: workspace.home, watch: false, ...options }),
      ...(agentOptions.plugins ?? []),
    ],
  });
  return { agent, manager: agent.resolve<Manager>(SkillsManager) };
}

/** Run `body` with a fresh workspace, always cleaned up. */
export async function withWorkspace<T>(body: (workspace: TempWorkspace) => Promise<T>): Promise<T> {
  const workspace = await createTempWorkspace("pseudoclaude-skills-");
  try {
    return await body(workspace);
  } finally {
    await workspace.cleanup();
  }
}

/** Write `<root>/<name>/SKILL.md` (and executable scripts) and return the skill's folder. */
export async function writeSkill(
  root: string,
  name: string,
  frontMatter: Record<string, unknown> | string,
  body = "Do the thing.",
  scripts: Record<string, string> = {},
): Promise<string> {
  const dir = path.join(root, name);
  await mkdir(dir, { recursive: true });
  const yaml =
    typeof frontMatter === "string"
      ? frontMatter
      : Object.entries(frontMatter)
          .map(([key, value]) => `${key}: ${JSON.stringify(value)}`)
          .join("\n");
  await writeFile(path.join(dir, "SKILL.md"), `---\n${yaml}\n---\n${body}\n`);
  for (const [file, text] of Object.entries(scripts)) {
    await mkdir(path.join(dir, "scripts"), { recursive: true });
    // Files with a `#!` line are executable scripts; anything else is a plain bundled file.
    await writeFile(path.join(dir, "scripts", file), text, {
      mode: text.startsWith("#!") ? 0o755 : 0o644,
    });
  }
  return dir;
}
