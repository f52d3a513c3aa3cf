import type { CommandSpec } from "./command.js";

/** `pseudoclaude --help`: the commands, the flags they share and the exit codes. */
export function globalHelp(commands: readonly CommandSpec[]): string {
  const width = Math.max(...commands.map((command) => command.name.length), "help".length);
  const list = commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`);
  return `pseudoclaude - a plugin-based AI agent

Usage: pseudoclaude <command> [arguments] [options]

Commands:
${list.join("\n")}
  ${"help".padEnd(width)}  Show help for a command: pseudoclaude help COMMAND

Options for every command:
  --workspace DIR       workspace root (default: the current directory)
  --json                machine-readable output on stdout; everything else goes to stderr
  --plugin PATH         load a plugin module (default export, or "plugin"/"plugins"); repeatable
  --user-config FILE    user config layer (default: ~/.PseudoClaude/config.yaml)
  -h, --help            show help
  --version             print the version

Exit codes: 0 ok, 1 the tool or run failed, 2 usage or configuration error, 130 interrupted.`;
}
