import { createRequire } from "node:module";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { GrepOutcome, GrepRequest, JudgeFiles } from "./grep-request.js";

/**
 * The worker's script, as compiled (dist/src), found from the package's root by its name: the
 * code that starts it may run from dist/src or from a chunk of dist/bundle.
 */
const GREP_WORKER = path.join(
  path.dirname(
    createRequire(import.meta.url).resolve("@pseudoclaude/plugin-builtin-tools/package.json"),
  ),
  "dist",
  "src",
  "grep",
  "grep-worker.js",
);

/** What the worker posts: a batch of files to judge, then the outcome. */
export type WorkerMessage =
  | { kind: "judge"; id: number; files: string[] }
  | { kind: "done"; ok: true; outcome: GrepOutcome }
  | { kind: "done"; ok: false; message: string };

/** The answer to a `judge` message: the files path rules keep out. */
export interface WorkerJudged {
  id: number;
  withheld: string[];
}

/**
 * Run a search in a worker thread. Aborting the signal (timeout or cancel) terminates the
 * worker at once, even mid-regex, and rejects with the signal's reason; the agent's own
 * thread never blocks on a search.
 */
export function runGrep(
  request: GrepRequest,
  signal: AbortSignal,
  judge?: JudgeFiles,
): Promise<GrepOutcome> {
  signal.throwIfAborted();
  const worker = new Worker(GREP_WORKER, {
    workerData: request,
    resourceLimits: { maxOldGenerationSizeMb: 256 },
  });
  return new Promise<GrepOutcome>((resolve, reject) => {
    let settled = false;
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener("abort", onAbort);
      void worker.terminate();
      finish();
    };
    const onAbort = () => settle(() => reject(signal.reason));
    signal.addEventListener("abort", onAbort, { once: true });
    worker.on("message", (message: WorkerMessage) => {
      if (message.kind === "done") {
        settle(() => (message.ok ? resolve(message.outcome) : reject(new Error(message.message))));
        return;
      }
      // Without a judge nothing is kept out; a judge that fails fails the search.
      (judge ? judge(message.files) : Promise.resolve(new Set<string>())).then(
        (withheld) => {
          if (!settled) worker.postMessage({ id: message.id, withheld: [...withheld] });
        },
        (error: unknown) => settle(() => reject(error)),
      );
    });
    worker.once("error", (error) => settle(() => reject(error)));
    worker.once("exit", (code) =>
      settle(() =>
        reject(new Error(`The search worker stopped unexpectedly (exit code ${code}).`)),
      ),
    );
  });
}
