import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Diagnostic } from "@pseudoclaude/core";
import { type ConsentSubject, consentSubject } from "@pseudoclaude/core/consent";
import { mapAllowedTool, splitAllowedTools, splitFrontMatter } from "@pseudoclaude/plugin-skills";
import { LineCounter, parseDocument } from "yaml";

/** Where agent files are looked for, under the workspace (project) and the home (user). */
export const AGENT_FOLDERS = [path.join(".PseudoClaude", "agents"), path.join(".claude", "agents")];

/** One agent file as found: what it asks for, where it is, what it needs. */
export interface AgentFile {
  name: string;
  description: string;
  /** The body: the sub-agent's instructions. */
  instructions: string;
  /** Tool patterns of ours (Claude Code's names mapped); undefined: every tool of the parent. */
  tools?: string[];
  /**
   * `model` as written. A model id runs the sub-agent on that model of the parent's provider;
   * `inherit` and Claude Code's aliases (`sonnet`, `opus`, `haiku`) use the parent's model.
   */
  model?: string;
  layer: "user" | "project";
  file: string;
  /** Set for a project file: it needs the user's approval (it runs on the user's tools). */
  approval?: ConsentSubject;
}

/**
 * Every agent file: the user's (`~/.PseudoClaude/agents`, `~/.claude/agents`), then the
 * workspace's, which replace a user's of the same name. A file that cannot be used is a
 * diagnostic with its file and line; the others still load.
 */
export function loadAgentFiles(
  workspace: string,
  report: (diagnostic: Diagnostic) => void,
  homeDir: string = os.homedir(),
): AgentFile[] {
  const byName = new Map<string, AgentFile>();
  for (const [layer, base] of [
    ["user", homeDir],
    ["project", workspace],
  ] as const) {
    const seen = new Set<string>();
    for (const folder of AGENT_FOLDERS) {
      const dir = path.join(base, folder);
      let names: string[];
      try {
        names = readdirSync(dir)
          .filter((name) => name.endsWith(".md"))
          .sort();
      } catch {
        continue;
      }
      for (const name of names) {
        const agent = parseAgentFile(path.join(dir, name), layer, report);
        if (!agent) continue;
        if (seen.has(agent.name)) {
          report(
            problem(
              agent.file,
              undefined,
              "agent_duplicate",
              `Agent "${agent.name}" is defined twice in the ${layer} folders; ${agent.file} is ignored.`,
              "warning",
            ),
          );
          continue;
        }
        seen.add(agent.name);
        const shadowed = byName.get(agent.name);
        if (shadowed)
          report(
            problem(
              agent.file,
              undefined,
              "agent_shadowed",
              `Agent "${agent.name}" of ${agent.file} replaces the one of ${shadowed.file}.`,
              "info",
            ),
          );
        byName.set(agent.name, agent);
      }
    }
  }
  return [...byName.values()];
}

function parseAgentFile(
  file: string,
  layer: "user" | "project",
  report: (diagnostic: Diagnostic) => void,
): AgentFile | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    report(
      problem(
        file,
        undefined,
        "agent_unreadable",
        `${file} cannot be read (${(error as Error).message}).`,
      ),
    );
    return undefined;
  }
  const split = splitFrontMatter(text);
  if (!split || "unclosed" in split) {
    report(
      problem(
        file,
        1,
        "agent_invalid",
        `${file} has no front matter (--- name, description --- at the top); it is skipped.`,
      ),
    );
    return undefined;
  }
  const lineCounter = new LineCounter();
  const document = parseDocument(split.yaml.replace(/^\uFEFF?---[ \t]*\r?\n/, ""), { lineCounter });
  if (document.errors.length > 0) {
    const first = document.errors[0];
    const line = first?.linePos?.[0]?.line;
    report(
      problem(
        file,
        line === undefined ? undefined : line + 1,
        "agent_invalid",
        `The front matter of ${file} is not YAML (${first?.message.split("\n")[0]}); it is skipped.`,
      ),
    );
    return undefined;
  }
  const data = document.toJS() as Record<string, unknown> | null;
  const name = typeof data?.name === "string" ? data.name.trim() : "";
  const description = typeof data?.description === "string" ? data.description.trim() : "";
  if (!name || !description) {
    report(
      problem(
        file,
        2,
        "agent_invalid",
        `${file} needs a name and a description in its front matter; it is skipped.`,
      ),
    );
    return undefined;
  }
  const agent: AgentFile = { name, description, instructions: split.body.trim(), layer, file };
  if (data?.tools !== undefined) {
    const entries = splitAllowedTools(data.tools);
    if (!entries)
      report(
        problem(
          file,
          undefined,
          "agent_invalid",
          `"tools" of ${file} is not a list of tool names; the agent gets no tools.`,
        ),
      );
    const patterns: string[] = [];
    for (const entry of entries ?? []) {
      const mapped = mapAllowedTool(entry);
      if ("pattern" in mapped) patterns.push(mapped.pattern);
      else
        report(
          problem(
            file,
            undefined,
            "agent_tool_unknown",
            `Tool "${entry}" of agent "${name}" ${mapped.problem}; it is left out.`,
            "warning",
          ),
        );
    }
    agent.tools = patterns;
  }
  if (typeof data?.model === "string") {
    agent.model = data.model;
    // Claude Code's aliases name its own current models; here they would be a guess.
    if (data.model !== "inherit" && CLAUDE_CODE_MODEL_ALIASES.has(data.model))
      report(
        problem(
          file,
          undefined,
          "agent_model_inherited",
          `Agent "${name}" asks for Claude Code's model alias "${data.model}"; it uses the parent's model (write a model id, e.g. the one your provider's model setting names, to choose one).`,
          "info",
        ),
      );
  }
  if (layer === "project") agent.approval = agentSubject(agent, text);
  return agent;
}

/** What Claude Code's `model` may say instead of a model id. */
const CLAUDE_CODE_MODEL_ALIASES = new Set(["inherit", "sonnet", "opus", "haiku"]);

/** The model an agent file runs on: its `model` when that is a model id, else the parent's. */
export function agentModel(agent: Pick<AgentFile, "model">): string | undefined {
  return agent.model !== undefined && !CLAUDE_CODE_MODEL_ALIASES.has(agent.model)
    ? agent.model
    : undefined;
}

/** A project agent as the consent store knows it: a changed file asks again. */
export function agentSubject(
  agent: Pick<AgentFile, "name" | "description">,
  text: string,
): ConsentSubject {
  return consentSubject({
    kind: "sub_agent",
    name: `agent:${agent.name}`,
    covers: { text },
    summary: `agent ${agent.name}: ${agent.description.slice(0, 120)}`,
    effects: [`runs the repository's instructions as a sub-agent on your tools`],
    legacyDigests: [`sha256:${createHash("sha256").update(text).digest("hex")}`],
  });
}

function problem(
  file: string,
  line: number | undefined,
  code: string,
  message: string,
  severity: Diagnostic["severity"] = "error",
): Diagnostic {
  return {
    stage: "config",
    severity,
    code,
    file,
    ...(line !== undefined ? { line } : {}),
    message,
  };
}
