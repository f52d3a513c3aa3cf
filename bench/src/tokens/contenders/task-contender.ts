import type { ServerSpec } from "../../contender.js";

/** What every contender of the token row gets: the same model, servers and prompts. */
export interface TaskSetup {
  /** The local model's OpenAI-style base URL (`http://127.0.0.1:<port>/v1`). */
  baseURL: string;
  /** One stdio replay server per recorded tool set. */
  servers: readonly ServerSpec[];
  system: string;
  prompt: string;
  /** Model requests a run may make at most (each framework's own step or turn limit). */
  maxSteps: number;
}

/**
 * A framework running the token row's task its own documented way: its MCP client for the
 * servers, its tool search, its agent loop, pointed at the local model.
 */
export interface TaskContender {
  readonly name: string;
  /** The packages measured, with exact versions. */
  readonly package: string;
  /** Runs the task to the model's final answer and closes everything it started. */
  run(setup: TaskSetup): Promise<void>;
}

/**
 * A contender that cannot do the row, with the reason (a feature missing from the version that
 * runs here): recorded in the row as `unable`, not a failure of the run.
 */
export class Unable extends Error {
  override readonly name = "Unable";
}
