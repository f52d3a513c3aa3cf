import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  type AgentModelChoice,
  classifyAgentModel,
  frontMatterPosition,
  readFrontMatter,
} from "@pseudoclaude/compat-claude-code";
import type { Diagnostic } from "@pseudoclaude/core";
import { type ConsentSubject, consentSubject } from "@pseudoclaude/core/consent";
import { isPlainObject } from "@pseudoclaude/core/plugin";
import { agentTools } from "./agent-tools.js";

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
  /** `model` as written (when it is text). */
  model?: string;
  /**
   * What `model` asks for, as Claude Code's format means it: a model id of the parent's
   * provider, an alias (`sonnet`, `opus`, `haiku`), or the parent's model (`inherit`, absent,
   * or a value that is none of these, which is reported once when the file is read).
   */
  modelChoice: AgentModelChoice;
  layer: "user" | "project";
  file: string;
  /** Claude Code's `maxTurns`: the most model turns the sub-agent takes; default the parent's. */
  maxTurns?: number;
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
  // Claude Code's reading: strict YAML, then its lenient retry (`description: Use when: …`).
  const read = readFrontMatter(text);
  if (read.kind === "missing" || read.kind === "unclosed") {
    report(
      problem(
        file,
        1,
        "agent_invalid",
        `${file} has no front matter (--- name, description --- at the top)${read.kind === "unclosed" ? ": its opening --- is never closed" : ""}; it is skipped.`,
      ),
    );
    return undefined;
  }
  if (read.kind === "invalid") {
    report({
      ...problem(
        file,
        read.line,
        "agent_invalid",
        `${file}:${read.line}:${read.column}: the front matter is not YAML (${read.message}), not even with Claude Code's quoting of special characters; it is skipped, as Claude Code skips it.`,
      ),
      column: read.column,
    });
    return undefined;
  }
  const { frontMatter } = read;
  // Claude Code reads front matter that is not a mapping as no fields at all.
  const data: Record<string, unknown> = isPlainObject(frontMatter.data) ? frontMatter.data : {};
  const name = typeof data.name === "string" ? data.name.trim() : "";
  // Claude Code turns the two characters `\n` into a line break: descriptions written on
  // one line carry their examples that way.
  const description =
    typeof data.description === "string" ? data.description.replace(/\\n/g, "\n").trim() : "";
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
  const agent: AgentFile = {
    name,
    description,
    instructions: frontMatter.body.trim(),
    layer,
    file,
    modelChoice: { kind: "inherit" },
  };
  // Warnings about a field point at its line and column.
  const at = (key: string) => {
    const position = frontMatterPosition(frontMatter, key);
    return position ? { line: position.line, column: position.column } : {};
  };
  const tools = agentTools(data, name, (code, message, severity, field) =>
    report({ ...problem(file, undefined, code, message, severity), ...at(field) }),
  );
  if (tools) agent.tools = tools;
  if (data.model !== undefined && data.model !== null) {
    if (typeof data.model === "string") agent.model = data.model;
    agent.modelChoice = classifyAgentModel(data.model);
    if (agent.modelChoice.kind === "unknown")
      report({
        ...problem(
          file,
          undefined,
          "agent_model_inherited",
          `Agent "${name}" asks for model "${agent.modelChoice.value}", which is neither a model id, nor one of Claude Code's aliases (sonnet, opus, haiku), nor inherit; it runs on the parent's model.`,
          "warning",
        ),
        ...at("model"),
      });
  }
  if (data.maxTurns !== undefined) {
    const maxTurns = positiveInteger(data.maxTurns);
    if (maxTurns !== undefined) agent.maxTurns = maxTurns;
    else
      report({
        ...problem(
          file,
          undefined,
          "agent_field_invalid",
          `"maxTurns" of agent "${name}" is not a positive whole number; the parent's limit applies.`,
          "warning",
        ),
        ...at("maxTurns"),
      });
  }
  if (layer === "project") agent.approval = agentSubject(agent, text);
  return agent;
}

/** A positive whole number, written as a number or as digits (as Claude Code accepts it). */
function positiveInteger(value: unknown): number | undefined {
  const number = typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  return typeof number === "number" && Number.isInteger(number) && number > 0 ? number : undefined;
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
