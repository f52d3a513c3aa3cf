// One contender's run of the code-mode token row's task in a fresh process:
// `node measure-chained.js CONTENDER MODEL_URL`. Writes the notes into a fresh workspace,
// resets the model's counts, runs the task, reads the counts back, checks the summary file the
// run left, and prints one JSON line of figures.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ModelStats } from "../tokens/model-server.js";
import { CHAINED_CONTENDERS } from "./chained-contenders.js";
import { CHAINED_TASK, expectedSummary, writeNotes } from "./chained-task.js";

/** Model requests a run may make at most: the classic run needs 8, code mode 2. */
const MAX_STEPS = 25;

const [name = "", modelUrl = ""] = process.argv.slice(2);
const contender = CHAINED_CONTENDERS[name];
if (!contender || !modelUrl) {
  process.stderr.write(
    `usage: measure-chained.js CONTENDER MODEL_URL; contenders ${Object.keys(CHAINED_CONTENDERS).join(", ")}\n`,
  );
  process.exit(2);
}

async function model<T>(route: string, method = "GET"): Promise<T> {
  const response = await fetch(`${modelUrl}${route}`, { method });
  if (!response.ok) throw new Error(`model server ${route}: ${response.status}`);
  return (await response.json()) as T;
}

function summaryLeft(workspace: string): string | undefined {
  try {
    return readFileSync(path.join(workspace, CHAINED_TASK.summaryPath), "utf8");
  } catch {
    return undefined;
  }
}

const workspace = mkdtempSync(path.join(os.tmpdir(), "pc-bench-chained-"));
try {
  writeNotes(workspace);
  await model("/reset", "POST");
  const start = performance.now();
  await contender.run({
    baseURL: `${modelUrl}/v1`,
    workspace,
    system: CHAINED_TASK.system,
    prompt: CHAINED_TASK.prompt,
    maxSteps: MAX_STEPS,
  });
  const elapsed = performance.now() - start;
  const stats = await model<ModelStats>("/stats");
  for (const [i, r] of stats.requests.entries())
    process.stderr.write(
      `${name} request ${i + 1}: ${r.input_tokens} tokens, ${r.callable_tools} tools -> ${r.action}\n`,
    );
  const tokens = stats.requests.map((r) => r.input_tokens);
  // Done means answered and the summary on disk is the right one, whichever way it was made.
  const written = summaryLeft(workspace) === expectedSummary();
  process.stdout.write(
    `${JSON.stringify({
      input_tokens: tokens.reduce((a, b) => a + b, 0),
      requests: stats.requests.length,
      max_request_tokens: Math.max(0, ...tokens),
      first_request_tools: stats.requests[0]?.callable_tools ?? 0,
      completed: stats.completed && written ? 1 : 0,
      run_ms: Math.round(elapsed),
    })}\n`,
  );
  process.exitCode = 0;
} catch (error) {
  process.stderr.write(`${(error as Error)?.stack ?? error}\n`);
  process.stderr.write(
    `bench-error: ${String((error as Error)?.message ?? error).split("\n")[0]}\n`,
  );
  process.exitCode = 1;
} finally {
  rmSync(workspace, { recursive: true, force: true });
}
