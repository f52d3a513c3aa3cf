// Worker thread entry: runs one search and posts its outcome. Terminating the worker stops
// even a regular expression that backtracks forever, which an in-thread search could not.
import { parentPort, workerData } from "node:worker_threads";
import { searchFiles } from "./grep-engine.js";
import type { GrepRequest } from "./grep-request.js";

searchFiles(workerData as GrepRequest).then(
  (outcome) => parentPort?.postMessage({ ok: true, outcome }),
  (error: unknown) =>
    parentPort?.postMessage({
      ok: false,
      message: error instanceof Error ? error.message : String(error),
    }),
);
