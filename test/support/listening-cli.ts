// A CLI command that serves until stopped (`studio`, `serve --mcp --http`), as a person starts
// it: a real process whose first stdout is one JSON document saying where it listens, stopped
// with SIGINT as Ctrl-C would.
import { spawn } from "node:child_process";
import { CLI_BIN } from "./cli.js";

export interface ListeningCli<T> {
  /** The JSON the command printed once listening. */
  ready: T;
  stderr(): string;
  /** Ctrl-C, then the exit code; the agent's servers end with it. */
  stop(): Promise<number | null>;
}

export async function startListeningCli<T>(
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<ListeningCli<T>> {
  const child = spawn(process.execPath, [CLI_BIN, ...args], {
    cwd: options.cwd,
    env: options.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  // A command that never says where it listens fails its test instead of hanging the suite.
  const guard = setTimeout(() => child.kill("SIGKILL"), 120_000);
  try {
    const ready = await new Promise<T>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
        try {
          resolve(JSON.parse(stdout) as T);
        } catch {
          // Not the whole document yet.
        }
      });
      void exited.then((code) =>
        reject(new Error(`pseudoclaude ${args[0]} exited ${code} before listening:\n${stderr}`)),
      );
    });
    return {
      ready,
      stderr: () => stderr,
      async stop() {
        child.kill("SIGINT");
        const code = await exited;
        clearTimeout(guard);
        return code;
      },
    };
  } catch (error) {
    clearTimeout(guard);
    throw error;
  }
}
