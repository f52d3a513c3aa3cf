import type { CliIo } from "./cli-io.js";
import type { CliFlag, CliFlags } from "./cli-options.js";

/** What a command gets: its flags and positionals (already checked), and the process edges. */
export interface CommandContext {
  flags: CliFlags;
  /** Positional arguments after the command name. */
  args: string[];
  io: CliIo;
}

/** One `pseudoclaude` command: how it is called (for parsing and help) and what it does. */
export interface CommandSpec {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** Full help text, shown by `pseudoclaude help NAME` and `NAME --help`. */
  usage: string;
  /** Flags beyond the global ones; any other flag is a usage error. */
  flags: readonly CliFlag[];
  /** Allowed number of positional arguments. */
  positionals: { min: number; max: number; names: string };
  /** Run and return the exit code. Throwing a usage/config error means exit 2. */
  run(context: CommandContext): Promise<number>;
}
