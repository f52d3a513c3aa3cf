/** What the command line asked for. */
export interface CreateArguments {
  directory?: string;
  name?: string;
  yes: boolean;
  help: boolean;
  version: boolean;
}

/** A mistake on the command line; the bin prints it with the usage and exits 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

export const USAGE = `Usage: npm create pseudoclaude@latest [DIRECTORY] -- [--name NAME] [--yes]
       create-pseudoclaude [DIRECTORY] [--name NAME] [--yes]

Writes a starter PseudoClaude app into DIRECTORY (a new or empty folder): an agent with an MCP
server, a tool of its own and a skill, an offline test, and a README.

Options:
  --name NAME   the app's package name (default: from the folder's name)
  -y, --yes     ask nothing, take the defaults (also when stdin is not a terminal)
  -h, --help    this text
  -v, --version this package's version`;

/** Parse argv (without node and the script). Throws UsageError on anything unknown. */
export function parseArguments(argv: readonly string[]): CreateArguments {
  const parsed: CreateArguments = { yes: false, help: false, version: false };
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] as string;
    const [flag, inline] = argument.startsWith("--")
      ? (argument.split(/=(.*)/s, 2) as [string, string | undefined])
      : [argument, undefined];
    if (flag === "--name") {
      const value = inline ?? argv[++index];
      if (value === undefined || value === "") throw new UsageError("--name needs a value.");
      parsed.name = value;
    } else if (flag === "--yes" || flag === "-y") parsed.yes = true;
    else if (flag === "--help" || flag === "-h") parsed.help = true;
    else if (flag === "--version" || flag === "-v") parsed.version = true;
    else if (flag.startsWith("-")) throw new UsageError(`Unknown option ${flag}.`);
    else if (parsed.directory === undefined) parsed.directory = argument;
    else throw new UsageError(`One folder only: got ${parsed.directory} and ${argument}.`);
  }
  return parsed;
}
