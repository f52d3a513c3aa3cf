import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { runningScripts } from "./replay-servers.js";

const here = path.dirname(fileURLToPath(import.meta.url));

/** The model server's script. */
export const MODEL_SERVER = path.join(here, "model-server.js");

/** The local model, running in a process of its own for one row, every contender's. */
export interface ModelServerProcess {
  url: string;
  /** Ends it and waits until it has exited. */
  stop(): Promise<void>;
}

/** Starts the model server (`env`: the measured processes' environment) and waits for its port. */
export async function startModelServerProcess(env: NodeJS.ProcessEnv): Promise<ModelServerProcess> {
  const child: ChildProcess = spawn(process.execPath, [MODEL_SERVER], {
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
    child.once("exit", (code) =>
      reject(new Error(`model server exited (${code}) before listening`)),
    );
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** Model servers running now (a row that ended must leave none). */
export function runningModelServers(): string[] {
  return runningScripts([MODEL_SERVER]);
}
