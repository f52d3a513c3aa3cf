import { open } from "node:fs/promises";
import { defineTool, type Tool } from "@pseudoclaude/core";
import { type ProcessRunner, processResult } from "@pseudoclaude/core/process";
import { z } from "zod";
import type { ScriptFile } from "../manager/bundled-files.js";
import { SKILLS_SOURCE_ID } from "./skill-tool-names.js";

export interface ScriptToolContext {
  skill: string;
  /** The skill's folder, given to the script as `SKILL_DIR`. */
  dir: string | undefined;
  /** Real path of the workspace: the script's working directory. */
  workspace: string;
  runner: ProcessRunner;
  maxOutputChars: number;
  killGraceMs: number;
}

const input = z.strictObject({
  args: z
    .array(z.string())
    .optional()
    .describe("Arguments, passed to the script as they are (no shell)."),
  stdin: z.string().optional().describe("Text written to the script's standard input."),
});

/** Every script of a loaded skill as its tool, in the order the scripts are listed. */
export async function scriptTools(
  scripts: readonly ScriptFile[],
  context: ScriptToolContext,
): Promise<Tool[]> {
  const tools: Tool[] = [];
  for (const script of scripts) tools.push(await scriptTool(script, context));
  return tools;
}

/**
 * A loaded skill's executable script as a tool: `side_effect`, decided by the policy like any
 * tool, run by the kernel's process runner (own process group, the one effective timeout,
 * SIGTERM then SIGKILL, an output cap) with the workspace as working directory.
 */
export async function scriptTool(script: ScriptFile, context: ScriptToolContext): Promise<Tool> {
  const summary = await leadingComment(script.file);
  return defineTool({
    name: script.tool,
    description: `Run ${script.display} of the loaded skill "${context.skill}"${summary ? `: ${summary}` : ""}. It runs in the workspace with SKILL_DIR set to the skill's folder; \`args\` are its arguments, \`stdin\` its input. Returns its output (stdout and stderr) and exit code.`,
    input,
    safety: "side_effect",
    source: SKILLS_SOURCE_ID,
    category: "command",
    async execute(args, call) {
      const outcome = await context.runner.run({
        file: script.file,
        args: args.args ?? [],
        cwd: context.workspace,
        env: { SKILL_DIR: context.dir ?? "", SKILL_NAME: context.skill },
        ...(args.stdin !== undefined ? { stdin: args.stdin } : {}),
        maxOutputChars: context.maxOutputChars,
        killGraceMs: context.killGraceMs,
        signal: call.signal,
      });
      return processResult(outcome, { noun: "Script", cwd: ".", timeoutMs: call.timeoutMs });
    },
  });
}

/**
 * The comment a script opens with (after `#!`), as its one-line summary: scripts people share
 * usually say what they do there. Reads at most 2 KB.
 */
async function leadingComment(file: string): Promise<string | undefined> {
  let head: string;
  try {
    const handle = await open(file, "r");
    try {
      const buffer = Buffer.alloc(2_048);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      head = buffer.subarray(0, bytesRead).toString("utf8");
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
  const lines = head.split("\n");
  if (lines[0]?.startsWith("#!")) lines.shift();
  const comment: string[] = [];
  for (const line of lines) {
    const match = /^\s*(?:#|\/\/|--)\s?(.*)$/.exec(line);
    if (!match) break;
    const text = (match[1] ?? "").trim();
    if (text === "" && comment.length > 0) break;
    if (text !== "" && !/^-\*-|^(?:shellcheck|eslint|noqa|type:)/i.test(text)) comment.push(text);
  }
  const summary = comment.join(" ").slice(0, 300);
  return summary === "" ? undefined : summary;
}
