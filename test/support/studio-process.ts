// `pseudoclaude studio` as a person starts it: a real CLI process in a temp workspace, its URL
// read from the JSON it prints once listening, stopped with SIGINT as Ctrl-C would.
import { spawn } from "node:child_process";
import type { TempWorkspace } from "@pseudoclaude/testing";
import { CLI_BIN } from "./cli.js";

export interface StudioProcess {
  url: string;
  port: number;
  token: string;
  /** The studio's address without the token. */
  base: string;
  stderr(): string;
  /** Ctrl-C, then the exit code; the agent's servers end with it. */
  stop(): Promise<number | null>;
}

export async function startStudioCli(
  workspace: TempWorkspace,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<StudioProcess> {
  const child = spawn(process.execPath, [CLI_BIN, "studio", "--json", ...args], {
    cwd: workspace.root,
    env: {
      ...process.env,
      HOME: workspace.home,
      USERPROFILE: workspace.home,
      PSEUDOCLAUDE_NO_BROWSER: "1",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  // A studio that never says where it listens fails its test instead of hanging the suite.
  const guard = setTimeout(() => child.kill("SIGKILL"), 120_000);
  const ready = await new Promise<{ url: string; port: number; token: string }>(
    (resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
        try {
          resolve(JSON.parse(stdout));
        } catch {
          // Not the whole document yet.
        }
      });
      void exited.then((code) =>
        reject(new Error(`pseudoclaude studio exited ${code} before listening:\n${stderr}`)),
      );
    },
  );
  return {
    ...ready,
    base: `http://127.0.0.1:${ready.port}`,
    stderr: () => stderr,
    async stop() {
      child.kill("SIGINT");
      const code = await exited;
      clearTimeout(guard);
      return code;
    },
  };
}
