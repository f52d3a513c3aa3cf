import os from "node:os";
import { loadInstructionFiles } from "@pseudoclaude/compat-claude-code";
import { definePlugin, type LoadedConfig, type Plugin } from "@pseudoclaude/core";
import type { PluginContext } from "@pseudoclaude/core/plugin";
import {
  homeReadRequests,
  homeReadSubject,
  INSTRUCTION_IMPORT_WIDENING,
} from "./instruction-consent.js";
import {
  cutWarning,
  INSTRUCTIONS_ORDER,
  INSTRUCTIONS_SOURCE,
  instructionSection,
  problemDiagnostic,
} from "./instruction-sections.js";

export interface InstructionsOptions {
  /**
   * `false` reads none (the CLI's `--no-instructions`). `agent.instructions: false` in any
   * config layer turns them off too: a repository may switch its own files off, never back on
   * against the user's config.
   */
  enabled?: boolean | undefined;
  /** Where the user's `~/.claude/CLAUDE.md` is, and what counts as their home. Default: `os.homedir()`. */
  homeDir?: string | undefined;
}

/**
 * The instruction files Claude Code and other coding agents read, in the system prompt: the
 * user's `~/.claude/CLAUDE.md`, then each directory's `CLAUDE.md`, `.claude/CLAUDE.md`,
 * `AGENTS.md` and `CLAUDE.local.md` from the repository's root down to the workspace, each
 * followed by its `@path` imports, each a section headed by its path. Sub-agents share the
 * sections (as Claude Code's sub-agents get the project's memory). They are text for the
 * model and widen nothing: the policy decides every call. A workspace config's
 * `agent.system_prompt` and `agent.append_system_prompt` are instruction text of the same kind.
 */
export function instructions(options: InstructionsOptions = {}): Plugin {
  return definePlugin({
    name: INSTRUCTIONS_SOURCE,
    trust: {
      widening: [INSTRUCTION_IMPORT_WIDENING],
      requests: ({ workspace, homeDir, config }) =>
        instructionsOn(config, options)
          ? homeReadRequests(workspace, options.homeDir ?? homeDir)
          : [],
    },
    register(context) {
      if (!instructionsOn(context.config, options)) return;
      const homeDir = options.homeDir ?? os.homedir();
      const load = loadInstructionFiles(context.workspace, {
        homeDir,
        homeRead: (request) =>
          context.consent.isApproved(homeReadSubject(request.target, homeDir, request)),
      });
      for (const problem of load.problems) context.report(problemDiagnostic(problem, homeDir));
      const report = (diagnostic: Parameters<PluginContext["report"]>[0]) =>
        context.report(diagnostic);
      for (const [index, file] of load.files.entries())
        context.addSystemPromptSection(instructionSection(file, index, report));
      addWorkspacePromptText(context, report);
    },
  });
}

/** Whether instruction files are read: not when the caller or any config layer says `false`. */
export function instructionsOn(config: LoadedConfig, options: InstructionsOptions = {}): boolean {
  if (options.enabled === false) return false;
  return !config
    .section<Record<string, unknown>>("agent")
    .some((entry) => isRecord(entry.value) && entry.value.instructions === false);
}

/** The config keys whose text a workspace's config gives the model (the user's set the base). */
const PROMPT_KEYS = ["system_prompt", "append_system_prompt"] as const;

/**
 * A workspace config's `agent.system_prompt` or `agent.append_system_prompt`: the repository's
 * words, so they are instruction text like its `CLAUDE.md` (after its files), never a
 * replacement of the user's base prompt.
 */
function addWorkspacePromptText(
  context: PluginContext,
  report: Parameters<typeof cutWarning>[0],
): void {
  for (const entry of context.config.section<Record<string, unknown>>("agent")) {
    if (entry.layer === "user" || !isRecord(entry.value)) continue;
    for (const key of PROMPT_KEYS) {
      const text = entry.value[key];
      if (typeof text !== "string" || text.trim() === "") continue;
      context.addSystemPromptSection({
        id: `instructions:config:${key}`,
        source: entry.file,
        title: `agent.${key} of the workspace's config (project instructions)`,
        content: text,
        maxChars: text.length,
        order: INSTRUCTIONS_ORDER + 1,
        onCut: cutWarning(report, `agent.${key} of the workspace's config`, entry.file),
      });
    }
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
