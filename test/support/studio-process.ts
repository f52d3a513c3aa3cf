// `pseudoclaude studio` as a person starts it: a real CLI process in a temp workspace, its URL
// read from the JSON it prints once listening, stopped with SIGINT as Ctrl-C would.
import type { TempWorkspace } from "@pseudoclaude/testing";
import { startListeningCli } from "./listening-cli.js";

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
  const cli = await startListeningCli<{ url: string; port: number; token: string }>(
    ["studio", "--json", ...args],
    {
      cwd: workspace.root,
      env: {
        ...process.env,
        HOME: workspace.home,
        USERPROFILE: workspace.home,
        PSEUDOCLAUDE_NO_BROWSER: "1",
        ...env,
      },
    },
  );
  return {
    ...cli.ready,
    base: `http://127.0.0.1:${cli.ready.port}`,
    stderr: cli.stderr,
    stop: cli.stop,
  };
}
