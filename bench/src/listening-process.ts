import { type ChildProcess, spawn } from "node:child_process";

/** A server process that printed `listening <port>`, and how to end it. */
export interface ListeningProcess {
  port: number;
  /** Ends it (SIGTERM) and waits until it has exited. */
  stop(): Promise<void>;
}

/**
 * Start `script` with `PORT=0` and wait for the port it prints (`listening <port>` on stdout):
 * the bench's HTTP echo servers and its local model print it so. `label` names it in the error
 * of a process that exits first.
 */
export async function startListening(
  script: string,
  env: NodeJS.ProcessEnv,
  label: string,
): Promise<ListeningProcess> {
  const child: ChildProcess = spawn(process.execPath, [script], {
    env: { ...env, PORT: "0" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let seen = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /listening (\d+)/.exec(seen);
      if (match) resolve(Number(match[1]));
    });
    child.once("exit", (code) => reject(new Error(`${label} exited (${code}) before listening`)));
  });
  return {
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
