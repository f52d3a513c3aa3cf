import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { checkConfig } from "@pseudoclaude/core";
import { APPROVALS_FILE } from "@pseudoclaude/core/consent";
import { CONFIG_DIR, KERNEL_SECTIONS } from "@pseudoclaude/core/plugin";
import { MCP_JSON_FILE, readMcpJson } from "@pseudoclaude/plugin-mcp";
import { loadCliConfig, projectApprovals } from "../cli-agent.js";
import { CliUsageError } from "../cli-errors.js";
import { writeJson, writeLine } from "../cli-io.js";
import type { CommandContext, CommandSpec } from "../command.js";
import { mergeWithOrigins, type ValueOrigin } from "../config-provenance.js";
import { defaultPlugins } from "../default-plugins.js";
import { EXIT } from "../exit-codes.js";
import {
  type InstructionFilesReport,
  instructionFilesReport,
} from "../instructions/instruction-report.js";
import { diagnosticsToJson } from "../json-output.js";
import { loadPluginModules } from "../load-plugins.js";
import { runConfigPrompt } from "./config-prompt.js";

/** `pseudoclaude config [path]`: the merged configuration and where each value came from. */
export const configCommand: CommandSpec = {
  name: "config",
  summary: "Show the merged configuration, each value with the file and line it came from.",
  usage: `Usage: pseudoclaude config [--json] [--workspace DIR] [--user-config FILE]
       pseudoclaude config path [--json]
       pseudoclaude config prompt [--json] [--system-prompt TEXT] [--append-system-prompt TEXT]
                                  [--no-instructions]

Read the user config (~/.PseudoClaude/config.yaml), the project's .mcp.json and the project
config (<workspace>/.PseudoClaude/config.yaml), merge them as the plugins do, and print every
value with the file and line it came from. Secrets (env and header values, keys, tokens) are
redacted; \${VAR} templates are shown as written. Every section is then checked by the
plugin that reads it, as a run would (nothing is started), and every diagnostic is listed:
exit 2 when one is an error.

  path     the files that were read, and those looked for and absent
  prompt   the system prompt a run would send, with its size in tokens (the workspace's MCP
           servers start, for their instructions; no model is called); --json
           {"system_prompt", "tokens", "chars"}
  --json   {"config": {...}, "values": [{path, value, layer, file, line, column}],
            "ignored": [...], "instructions": {...}, "diagnostics": [...]}; for path,
            {"files": [...]}

Claude Code's settings files (~/.claude/settings.json, the workspace's .claude/settings.json
and settings.local.json, managed settings) are layers too: their values show with their file
and line (an administrator's as "managed"), and their settings not applied here under ignored.
The instruction files a run would put in the system prompt (CLAUDE.md, AGENTS.md, imports) are
listed with their size in estimated tokens.`,
  flags: ["trust-project", "system-prompt", "append-system-prompt", "no-instructions"],
  positionals: { min: 0, max: 1, names: "[path|prompt]" },
  run: runConfig,
};

async function runConfig({ flags, args, io }: CommandContext): Promise<number> {
  const [what] = args;
  if (what !== undefined && what !== "path" && what !== "prompt")
    throw new CliUsageError(
      "unexpected_argument",
      `"config" takes "path", "prompt" or nothing (got "${what}").`,
    );
  if (what === "prompt") return runConfigPrompt({ flags, args, io });
  const { workspace, config } = await loadCliConfig(flags, io);
  const mcpJson = readMcpJson(workspace);
  const mcpJsonFile = path.join(workspace, MCP_JSON_FILE);
  if (what === "path") {
    const approvals = path.join(os.homedir(), CONFIG_DIR, APPROVALS_FILE);
    const files = [
      ...config.layers.map((layer) => ({
        kind: "config",
        layer: layer.name,
        file: layer.file,
        exists: layer.exists,
      })),
      { kind: "mcp_json", layer: "project", file: mcpJsonFile, exists: existsSync(mcpJsonFile) },
      { kind: "approvals", layer: "user", file: approvals, exists: existsSync(approvals) },
    ];
    if (flags.json) writeJson(io.stdout, { files });
    else
      for (const file of files)
        writeLine(
          io.stdout,
          `${file.exists ? "read  " : "absent"}  ${file.layer.padEnd(7)}  ${file.kind.padEnd(9)}  ${file.file}`,
        );
    return EXIT.ok;
  }
  const plugins = [...defaultPlugins(), ...(await loadPluginModules(flags.plugin ?? [], io.cwd))];
  const merged = mergeWithOrigins(config, mcpJson.entries, [
    ...KERNEL_SECTIONS,
    ...plugins.flatMap((plugin) => plugin.sections ?? []),
  ]);
  // Every section read by its own plugin, exactly as a run reads it; nothing is started.
  const diagnostics = await checkConfig({
    workspace,
    config: { loaded: config, onError: "diagnose" },
    plugins,
    projectApprovals: projectApprovals(flags),
  });
  const failed = diagnostics.some((diagnostic) => diagnostic.severity === "error");
  // The instruction files a run would put in the system prompt, read as a run reads them.
  const instructions = instructionFilesReport({
    workspace,
    config,
    approvals: projectApprovals(flags),
  });
  if (flags.json) {
    writeJson(io.stdout, {
      config: merged.config,
      values: merged.values,
      ignored: merged.ignored,
      instructions,
      diagnostics: diagnosticsToJson(diagnostics),
    });
    return failed ? EXIT.usage : EXIT.ok;
  }
  if (merged.values.length === 0)
    writeLine(
      io.stdout,
      "No configuration: every file is absent or empty (see: pseudoclaude config path).",
    );
  for (const value of merged.values)
    writeLine(io.stdout, `${value.path} = ${shown(value.value)}    ${where(value, workspace)}`);
  for (const value of merged.ignored)
    writeLine(
      io.stdout,
      `${value.path} = ${shown(value.value)}    ${where(value, workspace)}    (ignored: ${value.reason})`,
    );
  writeInstructions(io, instructions);
  for (const diagnostic of diagnostics)
    writeLine(
      io.stderr,
      `${diagnostic.severity} ${diagnostic.file ?? ""}${diagnostic.line ? `:${diagnostic.line}` : ""}: ${diagnostic.message}`,
    );
  return failed ? EXIT.usage : EXIT.ok;
}

function writeInstructions(io: CommandContext["io"], report: InstructionFilesReport): void {
  if (report.kind === "off") {
    writeLine(
      io.stdout,
      `instruction files: off (${report.why === "option" ? "--no-instructions" : "agent.instructions: false"})`,
    );
    return;
  }
  const total = report.files.reduce((sum, file) => sum + file.tokens, 0);
  writeLine(
    io.stdout,
    `instruction files: ${report.files.length} in the system prompt, ~${total} tokens${report.files.length > 0 ? ":" : ""}`,
  );
  for (const file of report.files) {
    const imported = file.importedBy
      ? `  (imported by ${file.importedBy.display}:${file.importedBy.line})`
      : "";
    writeLine(io.stdout, `  ${file.display}  ~${file.tokens} tokens${imported}`);
  }
}

function shown(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

function where(value: ValueOrigin, workspace: string): string {
  const relative = path.relative(workspace, value.file);
  const file = relative.startsWith("..") || path.isAbsolute(relative) ? value.file : relative;
  return `${value.layer} ${file}${value.line !== undefined ? `:${value.line}` : ""}`;
}
