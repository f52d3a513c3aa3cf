import type { Agent } from "@pseudoclaude/core";
import type { McpManager } from "@pseudoclaude/plugin-mcp";
import type { SkillsManager } from "@pseudoclaude/plugin-skills";
import { StudioHttpError } from "./http-json.js";

/*
 * The plugins' DI tokens are global symbols, so the studio finds their services without
 * loading the plugins itself: an agent composed without MCP or Skills just has no such page.
 */
const MCP_MANAGER = Symbol.for("@pseudoclaude/plugin-mcp:McpManager");
const SKILLS_MANAGER = Symbol.for("@pseudoclaude/plugin-skills:SkillsManager");

export function mcpManagerOf(agent: Agent): McpManager | undefined {
  return optionalService<McpManager>(agent, MCP_MANAGER);
}

export function skillsManagerOf(agent: Agent): SkillsManager | undefined {
  return optionalService<SkillsManager>(agent, SKILLS_MANAGER);
}

/** The MCP plugin's manager, or a 404 `no_mcp` for an agent composed without it. */
export function requireMcpManager(agent: Agent): McpManager {
  const manager = mcpManagerOf(agent);
  if (!manager) throw new StudioHttpError(404, "no_mcp", "This agent has no MCP plugin.");
  return manager;
}

/** The Skills plugin's manager, or a 404 `no_skills` for an agent composed without it. */
export function requireSkillsManager(agent: Agent): SkillsManager {
  const manager = skillsManagerOf(agent);
  if (!manager) throw new StudioHttpError(404, "no_skills", "This agent has no Skills plugin.");
  return manager;
}

function optionalService<T>(agent: Agent, token: symbol): T | undefined {
  try {
    return agent.resolve<T>(token);
  } catch {
    return undefined;
  }
}
