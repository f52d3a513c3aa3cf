// `pseudoclaude serve --mcp --http` as a person starts it: a real CLI process, its address read
// from the JSON it prints once listening, stopped with SIGINT as Ctrl-C would.
import { spawn } from "node:child_process";
import { CLI_BIN } from "./cli.js";
import { type GatewayWorkspace, gatewayEnv } from "./gateway-workspace.js";

export interface GatewayProcess {
  url: string;
  port: number;
  auth: string;
  token?: string;
  tools: number;
  stderr(): string;
  /** Ctrl-C, then the exit code; the agent's servers end with it. */
  stop(): Promise<number | null>;
}

export async function startHttpGateway(
  workspace: GatewayWorkspace,
  args: readonly string[] = [],
  env: Record<string, string> = {},
): Promise<GatewayProcess> {
  const child = spawn(
    process.execPath,
    [CLI_BIN, "serve", "--mcp", "--http", "0", "--json", "--workspace", workspace.root, ...args],
    {
      cwd: workspace.root,
      env: { ...gatewayEnv(workspace), ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  // A gateway that never says where it listens fails its test instead of hanging the suite.
  const guard = setTimeout(() => child.kill("SIGKILL"), 120_000);
  try {
    const ready = await new Promise<Omit<GatewayProcess, "stderr" | "stop">>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
        try {
          resolve(JSON.parse(stdout));
        } catch {
          // Not the whole document yet.
        }
      });
      void exited.then((code) =>
        reject(new Error(`pseudoclaude serve --mcp exited ${code} before listening:\n${stderr}`)),
      );
    });
    return {
      ...ready,
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
