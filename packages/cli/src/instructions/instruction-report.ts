import os from "node:os";
import {
  type InstructionProblem,
  type InstructionScope,
  loadInstructionFiles,
} from "@pseudoclaude/compat-claude-code";
import { estimateRequestTokens, type LoadedConfig } from "@pseudoclaude/core";
import { type ProjectApprovals, workspaceConsent } from "@pseudoclaude/core/consent";
import { homeReadSubject } from "./instruction-consent.js";
import { type InstructionsOptions, instructionsOn } from "./instructions-plugin.js";

/** One instruction file an agent of this workspace would read, and its size. */
export interface InstructionFileEntry {
  path: string;
  /** Relative to the repository's root, or `~/…`. */
  display: string;
  scope: InstructionScope;
  /** For an imported file: the file and line that imported it. */
  importedBy?: { path: string; display: string; line: number } | undefined;
  chars: number;
  /** Estimated as the agent estimates a request's tokens. */
  tokens: number;
}

/** What `pseudoclaude config` lists of the instruction files. */
export type InstructionFilesReport =
  | { kind: "off"; why: "option" | "config" }
  | { kind: "on"; files: InstructionFileEntry[]; problems: InstructionProblem[] };

/**
 * The instruction files an agent of this workspace would put in its system prompt, in that
 * order, with their size in characters and estimated tokens, and the files left out (with
 * why): what the `instructions` plugin reads, read the same way, nothing started. A home file
 * the workspace's files import counts only once approved, as in a run (`approvals`: the CLI's
 * `--trust-project` is `all`).
 */
export function instructionFilesReport(context: {
  workspace: string;
  config: LoadedConfig;
  homeDir?: string | undefined;
  approvals?: ProjectApprovals | undefined;
  options?: InstructionsOptions | undefined;
}): InstructionFilesReport {
  const options = context.options ?? {};
  if (options.enabled === false) return { kind: "off", why: "option" };
  if (!instructionsOn(context.config, options)) return { kind: "off", why: "config" };
  const homeDir = options.homeDir ?? context.homeDir ?? os.homedir();
  const consent = workspaceConsent(context.approvals ?? "remembered", context.workspace, homeDir);
  const load = loadInstructionFiles(context.workspace, {
    homeDir,
    homeRead: (request) => consent.isApproved(homeReadSubject(request.target, homeDir, request)),
  });
  return {
    kind: "on",
    files: load.files.map((file) => ({
      path: file.path,
      display: file.display,
      scope: file.scope,
      ...(file.importedBy ? { importedBy: file.importedBy } : {}),
      chars: file.content.length,
      tokens: estimateRequestTokens({ system: file.content, messages: [], tools: [] }),
    })),
    problems: load.problems,
  };
}
