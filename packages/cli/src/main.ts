import { parseArgs } from "node:util";
import { errorMessage, loadZod } from "@pseudoclaude/core/plugin";
import { CliUsageError, type CliUsageErrorCode } from "./cli-errors.js";
import { type CliIo, writeLine } from "./cli-io.js";
import { CLI_OPTIONS, type CliFlags, GLOBAL_FLAGS } from "./cli-options.js";
import type { CommandSpec } from "./command.js";
import { agentsCommand } from "./commands/agents.js";
import { approveCommand } from "./commands/approve.js";
import { callCommand } from "./commands/call.js";
import { chatCommand } from "./commands/chat.js";
import { configCommand } from "./commands/config.js";
import { hooksCommand } from "./commands/hooks.js";
import { initCommand } from "./commands/init.js";
import { mcpCommand } from "./commands/mcp.js";
import { runCommand } from "./commands/run.js";
import { serveCommand } from "./commands/serve.js";
import { sessionsCommand } from "./commands/sessions.js";
import { skillsCommand } from "./commands/skills.js";
import { studioCommand } from "./commands/studio.js";
import { tasksCommand } from "./commands/tasks.js";
import { toolsCommand } from "./commands/tools.js";
import { trustCommand } from "./commands/trust.js";
import { EXIT } from "./exit-codes.js";
import { globalHelp } from "./help.js";
import { reportFailure } from "./report-failure.js";
import { suggestCommand, suggestFlag } from "./suggestions.js";
import { cliVersion } from "./version.js";

/** Every command, in the order help lists them. */
export const COMMANDS: readonly CommandSpec[] = [
  toolsCommand,
  callCommand,
  runCommand,
  chatCommand,
  skillsCommand,
  sessionsCommand,
  tasksCommand,
  hooksCommand,
  agentsCommand,
  mcpCommand,
  trustCommand,
  configCommand,
  initCommand,
  serveCommand,
  studioCommand,
  approveCommand,
];

const PARSE_ERROR_CODES: Record<string, CliUsageErrorCode> = {
  ERR_PARSE_ARGS_UNKNOWN_OPTION: "unknown_flag",
  ERR_PARSE_ARGS_INVALID_OPTION_VALUE: "invalid_flag_value",
  ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL: "unexpected_argument",
};

/**
 * Run `pseudoclaude` with `argv` (without `node` and the script) and return the exit code.
 * Never calls `process.exit`, so tests can run it in-process with buffers as `io`.
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const json = wantsJson(argv);
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    const code = PARSE_ERROR_CODES[(error as { code?: string }).code ?? ""] ?? "invalid_usage";
    if (code === "unknown_flag") {
      const unknown = unknownOption(argv, errorMessage(error));
      if (unknown) return usageError(io, json, code, unknown.message, unknown.suggestion);
    }
    return usageError(io, json, code, `${errorMessage(error)}.`);
  }
  const flags = parsed.values as CliFlags;
  const [name, ...args] = parsed.positionals;
  if (flags.version) {
    writeLine(io.stdout, cliVersion());
    return EXIT.ok;
  }
  if (name === undefined) {
    writeLine(flags.help ? io.stdout : io.stderr, globalHelp(COMMANDS));
    return flags.help ? EXIT.ok : EXIT.usage;
  }
  if (name === "help") return showHelp(io, json, args[0]);
  const command = findCommand(name);
  if (!command) return unknownCommand(io, json, name);
  if (flags.help) {
    writeLine(io.stdout, command.usage);
    return EXIT.ok;
  }
  const misuse = checkUsage(command, parsed.tokens, args);
  if (misuse) return usageError(io, json, misuse.code, misuse.message, misuse.suggestion);
  try {
    // Commands read config (servers, approvals) before any agent: schemas from the ES zod.
    await loadZod();
    return await command.run({ flags, args, io });
  } catch (error) {
    return reportFailure(io, json, error);
  }
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    options: CLI_OPTIONS,
    strict: true,
    allowPositionals: true,
    tokens: true,
  });
}

/** Known before parsing, so even a parse error is reported as JSON when `--json` was asked. */
function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf("--");
  return (end === -1 ? argv : argv.slice(0, end)).includes("--json");
}

function findCommand(name: string): CommandSpec | undefined {
  return COMMANDS.find((command) => command.name === name);
}

/** Flags the command does not take and the wrong number of arguments are usage errors. */
function checkUsage(
  command: CommandSpec,
  tokens: ReturnType<typeof parse>["tokens"],
  args: readonly string[],
): { code: CliUsageErrorCode; message: string; suggestion?: string } | undefined {
  for (const token of tokens) {
    if (token.kind !== "option") continue;
    const flag = token.name as (typeof command.flags)[number];
    if (!(GLOBAL_FLAGS as readonly string[]).includes(flag) && !command.flags.includes(flag)) {
      // `--max-turn` on `call` is about `call`'s own flags, not the one another command takes.
      const suggestion = suggestFlag(token.rawName, flagsOf(command));
      return {
        code: "unknown_flag",
        message: `Option '${token.rawName}' does not apply to "${command.name}".${suggestion ? ` Did you mean ${suggestion}?` : ""} Run "pseudoclaude ${command.name} --help".`,
        ...(suggestion ? { suggestion } : {}),
      };
    }
  }
  const { min, max, names } = command.positionals;
  if (args.length < min) {
    return {
      code: "missing_argument",
      message: `"${command.name}" needs ${names}. Usage: pseudoclaude ${command.name} ${names}`,
    };
  }
  if (args.length > max) {
    return {
      code: "unexpected_argument",
      message: `Unexpected argument '${args[max]}' for "${command.name}"${names ? ` (takes ${names})` : ""}. Quote a prompt or JSON that contains spaces.`,
    };
  }
  return undefined;
}

function showHelp(io: CliIo, json: boolean, topic: string | undefined): number {
  if (topic === undefined) {
    writeLine(io.stdout, globalHelp(COMMANDS));
    return EXIT.ok;
  }
  const command = findCommand(topic);
  if (!command) return unknownCommand(io, json, topic);
  writeLine(io.stdout, command.usage);
  return EXIT.ok;
}

function unknownCommand(io: CliIo, json: boolean, name: string): number {
  const names = [...COMMANDS.map((command) => command.name), "help"];
  const suggestion = suggestCommand(name, names);
  return usageError(
    io,
    json,
    "unknown_command",
    `Unknown command "${name}".${suggestion ? ` Did you mean "${suggestion}"?` : ""} Commands: ${names.join(", ")} (pseudoclaude --help says what each does).`,
    suggestion,
  );
}

/** The global flags and the command's own: what `--help` of the command lists. */
function flagsOf(command: CommandSpec): string[] {
  return [...GLOBAL_FLAGS, ...command.flags];
}

/**
 * A flag no command takes, said for the command it was given to, with the closest of that
 * command's flags. The command is the first word that names one (the parse failed, so it is
 * found again leniently); without one, every flag is a candidate.
 */
function unknownOption(
  argv: readonly string[],
  nodeMessage: string,
): { message: string; suggestion?: string } | undefined {
  const raw = /Unknown option '([^']+)'/.exec(nodeMessage)?.[1];
  if (raw === undefined) return undefined;
  const loose = parseArgs({ args: [...argv], strict: false, allowPositionals: true });
  const command = loose.positionals.map(findCommand).find((found) => found !== undefined);
  const candidates = command ? flagsOf(command) : Object.keys(CLI_OPTIONS);
  const suggestion = raw.startsWith("--") ? suggestFlag(raw, candidates) : undefined;
  const help = command ? `pseudoclaude ${command.name} --help` : "pseudoclaude --help";
  return {
    message: `Unknown option '${raw}'${command ? ` for "${command.name}"` : ""}.${suggestion ? ` Did you mean ${suggestion}?` : ""} Run "${help}" for the options; an argument that starts with "-" goes after "--".`,
    ...(suggestion ? { suggestion } : {}),
  };
}

function usageError(
  io: CliIo,
  json: boolean,
  code: CliUsageErrorCode,
  message: string,
  suggestion?: string,
): number {
  const details = suggestion === undefined ? undefined : { details: { suggestion } };
  return reportFailure(io, json, new CliUsageError(code, message, details));
}
