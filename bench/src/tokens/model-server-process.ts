import path from "node:path";
import { fileURLToPath } from "node:url";
import { startListening } from "../listening-process.js";
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
  const server = await startListening(MODEL_SERVER, env, "model server");
  return { url: `http://127.0.0.1:${server.port}`, stop: server.stop };
}

/** Model servers running now (a row that ended must leave none). */
export function runningModelServers(): string[] {
  return runningScripts([MODEL_SERVER]);
}
