// Helpers for spawning the real built CLI in a temporary workspace with its own HOME.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";

/** The built entry point: dist/test/support -> dist/src/bin.js. */
export const BIN = fileURLToPath(new URL("../../src/bin.js", import.meta.url));

// tsc does not copy .mjs files, so fixtures are read from the source folder.
const FIXTURES = fileURLToPath(new URL("../../../test/fixtures/", import.meta.url));

/** Absolute path of a fixture module. */
export function fixture(name: string): string {
  return path.join(FIXTURES, name);
}

/** The fixture plugin with echo, write_note, fail and slow. */
export const TOOLS_PLUGIN = fixture("tools-plugin.mjs");

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A running CLI process and the promise of its outcome. */
export interface RunningCli {
  child: ReturnType<typeof spawn>;
  /** Resolves once the process has exited. */
  done: Promise<CliRun>;
  /** Everything written to stderr so far. */
  stderr(): string;
}

/** Start `node bin.js ...args` in the workspace, with HOME set to the workspace's fake home. */
export function startCli(workspace: TempWorkspace, args: readonly string[]): RunningCli {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: workspace.root,
    env: { ...process.env, HOME: workspace.home, USERPROFILE: workspace.home },
    stdio: ["pipe", "pipe", "pipe"],
  });
  child.stdin?.end();
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  // A hung CLI must fail the test, not hang the suite.
  const guard = setTimeout(() => child.kill("SIGKILL"), 30_000);
  const done = new Promise<CliRun>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(guard);
      resolve({ code, signal, stdout, stderr });
    });
  });
  return { child, done, stderr: () => stderr };
}

/** Run the CLI to completion. */
export function runCli(workspace: TempWorkspace, args: readonly string[]): Promise<CliRun> {
  return startCli(workspace, args).done;
}

/** Parse stdout, which must be exactly one JSON document. */
export function parseJson<T = Record<string, unknown>>(run: CliRun): T {
  try {
    return JSON.parse(run.stdout) as T;
  } catch (error) {
    throw new Error(
      `stdout is not one JSON document (${(error as Error).message}):\n${run.stdout}\nstderr:\n${run.stderr}`,
    );
  }
}

/** Run `body` with a fresh temporary workspace and always remove it afterwards. */
export async function withWorkspace(body: (workspace: TempWorkspace) => Promise<void>) {
  const workspace = await createTempWorkspace("pseudoclaude-cli-");
  try {
    await body(workspace);
  } finally {
    await workspace.cleanup();
  }
}

/** Names of the fixture tools that actually ran, in order (they log to `calls.log`). */
export function toolsThatRan(workspace: TempWorkspace): string[] {
  const file = path.join(workspace.root, "calls.log");
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => (JSON.parse(line) as { name: string }).name);
}

/** Resolve once `check` is true, polling; reject after `timeoutMs`. */
export async function waitFor(check: () => boolean, what: string, timeoutMs = 15_000) {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
