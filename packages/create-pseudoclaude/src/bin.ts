#!/usr/bin/env node
// `npm create pseudoclaude@latest my-app` runs this: npm installs the package and calls its
// `create-pseudoclaude` bin with the arguments after the package name.
import path from "node:path";
import { createInterface } from "node:readline/promises";
import { parseArguments, USAGE, UsageError } from "./arguments.js";
import { ownVersion, ScaffoldError, scaffold } from "./scaffold.js";
import { isValidPackageName, packageNameFrom } from "./starter-manifest.js";

const DEFAULT_FOLDER = "my-agent";

/** A path as a POSIX shell reads it, quoted only when it must be, for the printed `cd`. */
function shellPath(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;
}

/** Ask one question with a default; an empty answer or a closed stdin takes the default. */
async function ask(question: string, fallback: string): Promise<string> {
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = (await prompt.question(`${question} (${fallback}) `)).trim();
    return answer || fallback;
  } finally {
    prompt.close();
  }
}

async function main(argv: readonly string[]): Promise<number> {
  const args = parseArguments(argv);
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  if (args.version) {
    console.log(await ownVersion());
    return 0;
  }
  // Prompts only for a person at a terminal; CI and pipes get the defaults.
  const interactive = !args.yes && process.stdin.isTTY === true && process.stdout.isTTY === true;
  const directory =
    args.directory ??
    (interactive ? await ask("Folder for the app?", DEFAULT_FOLDER) : DEFAULT_FOLDER);
  const suggested = packageNameFrom(path.basename(path.resolve(directory)));
  const name = args.name ?? (interactive ? await ask("Package name?", suggested) : suggested);
  if (!isValidPackageName(name))
    throw new UsageError(
      `"${name}" is not a valid npm package name (lower case letters, digits, - . _ ~).`,
    );
  const files = await scaffold({ directory, name });
  const relative = path.relative(process.cwd(), path.resolve(directory)) || ".";
  console.log(`Created ${name} in ${relative} (${files.length} files).

Next steps:
  cd ${shellPath(relative)}
  npm install && npm start    # the agent on its own folder; offline demo without an API key
  npm install && npm test     # the offline test

For a real model: ANTHROPIC_API_KEY=... npm start (or OPENAI_API_KEY=...). See README.md.`);
  return 0;
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  if (error instanceof UsageError || error instanceof ScaffoldError) {
    console.error(`create-pseudoclaude: ${error.message}`);
    if (error instanceof UsageError) console.error(`\n${USAGE}`);
    process.exitCode = 2;
  } else throw error;
}
