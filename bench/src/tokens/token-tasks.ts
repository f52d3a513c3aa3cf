import { CHAINED_CONTENDERS } from "../code-mode/chained-contenders.js";
import type { RowParams } from "../measure.js";
import { OURS_IN_TASK, TASK_CONTENDERS } from "./contenders/index.js";
import { loadToolSets } from "./tool-set.js";

/**
 * What a token row runs: a task its own contenders do against the local model, one fresh
 * process each (`script`, `node <script> CONTENDER MODEL_URL`, one JSON line of figures).
 */
export interface TokenTask {
  /** The measuring script, relative to the bench's `dist`. */
  script: string;
  /** Each contender's packages, with exact versions. */
  packages: Readonly<Record<string, string>>;
  /** Ours: failing the row fails the run (a peer failing is recorded as `unable`). */
  ours: ReadonlySet<string>;
  /** Sizes the row's title names (`{tools}`, `{servers}`). */
  size(): RowParams;
}

function packagesOf(contenders: Readonly<Record<string, { package: string }>>) {
  return Object.fromEntries(Object.entries(contenders).map(([name, c]) => [name, c.package]));
}

/** `tool_search_tokens`: three tools of ~20 recorded MCP servers, with and without search. */
export const TOOL_SEARCH_TASK: TokenTask = {
  script: "tokens/measure-task.js",
  packages: packagesOf(TASK_CONTENDERS),
  ours: OURS_IN_TASK,
  size() {
    const sets = loadToolSets();
    return {
      servers: sets.length,
      tools: sets.reduce((sum, { set }) => sum + set.tools.length, 0),
    };
  },
};

/** `code_mode_tokens`: a chained task over a folder of files, call by call and as a program. */
export const CHAINED_TASK_ROW: TokenTask = {
  script: "code-mode/measure-chained.js",
  packages: packagesOf(CHAINED_CONTENDERS),
  ours: new Set(Object.keys(CHAINED_CONTENDERS)),
  size: () => ({}),
};
