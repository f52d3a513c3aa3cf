// `pseudoclaude serve --mcp --http` as a person starts it: a real CLI process, its address read
// from the JSON it prints once listening, stopped with SIGINT as Ctrl-C would.
import type { TempWorkspace } from "@pseudoclaude/testing";
import { gatewayEnv } from "./gateway-workspace.js";
import { startListeningCli } from "./listening-cli.js";

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
  workspace: TempWorkspace,
  args: readonly string[] = [],
  env: Record<string, string> = {},
): Promise<GatewayProcess> {
  const cli = await startListeningCli<Omit<GatewayProcess, "stderr" | "stop">>(
    ["serve", "--mcp", "--http", "0", "--json", "--workspace", workspace.root, ...args],
    { cwd: workspace.root, env: { ...gatewayEnv(workspace), ...env } },
  );
  return { ...cli.ready, stderr: cli.stderr, stop: cli.stop };
}
