import { Worker } from "node:worker_threads";
import type { GrepOutcome, GrepRequest } from "./grep-request.js";

type WorkerReply = { ok: true; outcome: GrepOutcome } | { ok: false; message: string };

/**
 * Run a search in a worker thread. Aborting the signal (timeout or cancel) terminates the
 * worker at once, even mid-regex, and rejects with the signal's reason; the agent's own
 * thread never blocks on a search.
 */
export function runGrep(request: GrepRequest, signal: AbortSignal): Promise<GrepOutcome> {
  signal.throwIfAborted();
  const worker = new Worker(new URL("./grep-worker.js", import.meta.url), {
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
    worker.once("message", (reply: WorkerReply) =>
      settle(() => (reply.ok ? resolve(reply.outcome) : reject(new Error(reply.message)))),
    );
    worker.once("error", (error) => settle(() => reject(error)));
    worker.once("exit", (code) =>
      settle(() =>
        reject(new Error(`The search worker stopped unexpectedly (exit code ${code}).`)),
      ),
    );
  });
}
