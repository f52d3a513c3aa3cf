// One contender's run of the token row's task in a fresh process:
// `node measure-task.js CONTENDER MODEL_URL`. Resets the model's counts, runs the task against
// one replay server per recorded tool set, reads the counts back and prints one JSON line of
// figures. A contender that cannot do the row prints `bench-unable: <reason>` and exits 3.
import { TASK_CONTENDERS } from "./contenders/index.js";
import { Unable } from "./contenders/task-contender.js";
import type { ModelStats } from "./model-server.js";
import { replaySpec, runningReplayServers } from "./replay-servers.js";
import { TASK } from "./task.js";
import { loadToolSets } from "./tool-set.js";

/** Model requests a run may make at most: the task needs 7 to 10 with any search. */
const MAX_STEPS = 25;

const [name = "", modelUrl = ""] = process.argv.slice(2);
const contender = TASK_CONTENDERS[name];
if (!contender || !modelUrl) {
  process.stderr.write(
    `usage: measure-task.js CONTENDER MODEL_URL; contenders ${Object.keys(TASK_CONTENDERS).join(", ")}\n`,
  );
  process.exit(2);
}

async function model<T>(path: string, method = "GET"): Promise<T> {
  const response = await fetch(`${modelUrl}${path}`, { method });
  if (!response.ok) throw new Error(`model server ${path}: ${response.status}`);
  return (await response.json()) as T;
}

/** The run's figures from the model's counts. */
export function figures(stats: ModelStats): Record<string, number> {
  const tokens = stats.requests.map((r) => r.input_tokens);
  return {
    input_tokens: tokens.reduce((a, b) => a + b, 0),
    input_tokens_deferred_free: stats.requests.reduce(
      (a, r) => a + r.input_tokens_deferred_free,
      0,
    ),
    requests: stats.requests.length,
    max_request_tokens: Math.max(0, ...tokens),
    first_request_tools: stats.requests[0]?.callable_tools ?? 0,
    completed: stats.completed ? 1 : 0,
  };
}

try {
  const servers = loadToolSets().map(({ file, set }) => replaySpec(file, set));
  await model("/reset", "POST");
  const start = performance.now();
  await contender.run({
    baseURL: `${modelUrl}/v1`,
    servers,
    system: TASK.system,
    prompt: TASK.prompt,
    maxSteps: MAX_STEPS,
  });
  const elapsed = performance.now() - start;
  const stats = await model<ModelStats>("/stats");
  // The requests, for a person reading why a contender spent what it spent.
  for (const [i, r] of stats.requests.entries())
    process.stderr.write(
      `${name} request ${i + 1}: ${r.api}${r.stream ? " stream" : ""} ${r.input_tokens} tokens, ${r.callable_tools} callable, ${r.deferred_tools} deferred -> ${r.action}\n`,
    );
  // Servers a contender's close left running: the runner reports them; wait for slow exits.
  const deadline = Date.now() + 5_000;
  while (runningReplayServers(process.pid).length > 0 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 50));
  process.stdout.write(`${JSON.stringify({ ...figures(stats), run_ms: Math.round(elapsed) })}\n`);
  process.exit(0);
} catch (error) {
  process.stderr.write(`${(error as Error)?.stack ?? error}\n`);
  const message = String((error as Error)?.message ?? error).split("\n")[0];
  if (error instanceof Unable) {
    process.stderr.write(`bench-unable: ${message}\n`);
    process.exit(3);
  }
  process.stderr.write(`bench-error: ${message}\n`);
  process.exit(1);
}
