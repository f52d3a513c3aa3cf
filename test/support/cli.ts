// Runs the built `pseudoclaude` command the way a person or a script would: a real child
// process in a temp workspace, HOME pointing at the workspace's fake home, no terminal.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { TempWorkspace } from "@pseudoclaude/testing";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
// Through the committed launcher, exactly as `npx pseudoclaude` runs it.
export const CLI_BIN = path.join(ROOT, "packages", "cli", "bin", "pseudoclaude.js");

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** Extra environment, applied last. */
  env?: Record<string, string>;
  /** Variables removed from the inherited environment (e.g. API keys of the machine). */
  unset?: readonly string[];
  /** Hang guard: a stuck CLI is killed so it fails its test instead of the suite. */
  timeoutMs?: number;
  /** Written to the CLI's stdin, which is then closed (default: no stdin at all). */
  input?: string;
}

/** A running CLI: what it wrote to stderr so far, and the promise of its outcome. */
export interface RunningCli {
  stderr(): string;
  done: Promise<CliRun>;
}

/** Start the CLI and return at once (for commands a test answers while they run). */
export function startCli(
  workspace: TempWorkspace,
  args: readonly string[],
  options: CliOptions = {},
): RunningCli {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: workspace.home,
    USERPROFILE: workspace.home,
    // The machine's own managed Claude Code settings (/etc/claude-code) are not the test's:
    // the fake home holds the one a test writes.
    PSEUDOCLAUDE_CLAUDE_MANAGED_SETTINGS: path.join(workspace.home, "managed-settings.json"),
  };
  for (const name of options.unset ?? []) delete env[name];
  Object.assign(env, options.env);
  const child = spawn(process.execPath, [CLI_BIN, ...args], {
    cwd: workspace.root,
    env,
    stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
  });
  if (options.input !== undefined) child.stdin?.end(options.input);
  const stdoutStream = child.stdout as NonNullable<typeof child.stdout>;
  const stderrStream = child.stderr as NonNullable<typeof child.stderr>;
  let stdout = "";
  let stderr = "";
  stdoutStream.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  stderrStream.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const guard = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 50_000);
  const done = new Promise<CliRun>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, stderr });
    });
  });
  return { stderr: () => stderr, done };
}

export function runCli(
  workspace: TempWorkspace,
  args: readonly string[],
  options: CliOptions = {},
): Promise<CliRun> {
  return startCli(workspace, args, options).done;
}

/** stdout as exactly one JSON document, or a failure that shows what came instead. */
export function parseJson<T>(run: CliRun): T {
  try {
    return JSON.parse(run.stdout) as T;
  } catch (error) {
    throw new Error(
      `stdout is not one JSON document (${(error as Error).message}).\nexit ${run.code}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`,
    );
  }
}
