// Worker thread entry: runs one search and posts its outcome. Terminating the worker stops
// even a regular expression that backtracks forever, which an in-thread search could not.
// While it searches it asks the agent's thread which files path rules keep out.
import { parentPort, workerData } from "node:worker_threads";
import { searchFiles } from "./grep-engine.js";
import type { GrepRequest } from "./grep-request.js";
import type { WorkerJudged, WorkerMessage } from "./run-grep.js";

const waiting = new Map<number, (withheld: Set<string>) => void>();
let nextId = 0;
parentPort?.on("message", (reply: WorkerJudged) => {
  waiting.get(reply.id)?.(new Set(reply.withheld));
  waiting.delete(reply.id);
});
const post = (message: WorkerMessage) => parentPort?.postMessage(message);

searchFiles(workerData as GrepRequest, undefined, (files) => {
  const id = nextId++;
  return new Promise((resolve) => {
    waiting.set(id, resolve);
    post({ kind: "judge", id, files });
  });
}).then(
  (outcome) => post({ kind: "done", ok: true, outcome }),
  (error: unknown) =>
    post({
      kind: "done",
      ok: false,
      message: error instanceof Error ? error.message : String(error),
    }),
);
