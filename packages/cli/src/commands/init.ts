import path from "node:path";
import { isValidPackageName, packageNameFrom, ScaffoldError, scaffold } from "create-pseudoclaude";
import { CliUsageError } from "../cli-errors.js";
import { writeJson, writeLine } from "../cli-io.js";
import type { CommandContext, CommandSpec } from "../command.js";
import { EXIT } from "../exit-codes.js";

const DEFAULT_FOLDER = "my-agent";

/** `pseudoclaude init`: the starter app of `npm create pseudoclaude`, from the CLI. */
export const initCommand: CommandSpec = {
  name: "init",
  summary:
    "Write a starter app (an MCP server, a tool, a skill, an offline test) into a new folder.",
  usage: `Usage: pseudoclaude init [DIRECTORY] [--name NAME] [--json] [--workspace DIR]

Write a starter PseudoClaude app into DIRECTORY (default ${DEFAULT_FOLDER}, under --workspace or
the current folder), as \`npm create pseudoclaude@latest\` does: an agent with the filesystem MCP
server, a tool of its own and a skill, providers by name with an offline scripted fallback, a
node:test test, a strict TypeScript 6 tsconfig.json and a README. A folder that is not empty is
refused (exit 2). Then: cd DIRECTORY && npm install && npm start.

  --name NAME   the app's package name (default: from the folder's name)
  --json        {"directory", "name", "files": [...]}`,
  flags: ["name"],
  positionals: { min: 0, max: 1, names: "[DIRECTORY]" },
  run: runInit,
};

async function runInit({ flags, args, io }: CommandContext): Promise<number> {
  const directory = path.resolve(flags.workspace ?? process.cwd(), args[0] ?? DEFAULT_FOLDER);
  const name = flags.name ?? packageNameFrom(path.basename(directory));
  if (!isValidPackageName(name))
    throw new CliUsageError(
      "invalid_flag_value",
      `--name "${name}" is not a valid npm package name (lower case letters, digits, - . _ ~).`,
    );
  let files: string[];
  try {
    files = await scaffold({ directory, name });
  } catch (error) {
    // The scaffold checks before it writes: nothing was touched, and the message says why.
    if (error instanceof ScaffoldError) throw new CliUsageError("target_not_empty", error.message);
    throw error;
  }
  if (flags.json) {
    writeJson(io.stdout, { directory, name, files });
    return EXIT.ok;
  }
  writeLine(io.stdout, `Created ${name} in ${directory} (${files.length} files).`);
  writeLine(io.stdout, `Next: cd ${directory} && npm install && npm start   (npm test: offline)`);
  return EXIT.ok;
}
