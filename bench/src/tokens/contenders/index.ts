import { aiSdkSearch } from "./ai-sdk.js";
import { mastraSearch } from "./mastra.js";
import { openaiAgentsSearch, openaiAgentsSearchFlat } from "./openai-agents.js";
import { pseudoclaudeAll, pseudoclaudeSearch, pseudoclaudeSearchHosted } from "./pseudoclaude.js";
import type { TaskContender } from "./task-contender.js";

/** The token row's contenders by name; `pseudoclaude-all` is the one the others divide by. */
export const TASK_CONTENDERS: Readonly<Record<string, TaskContender>> = Object.fromEntries(
  [
    pseudoclaudeAll,
    pseudoclaudeSearch,
    pseudoclaudeSearchHosted,
    aiSdkSearch,
    openaiAgentsSearch,
    openaiAgentsSearchFlat,
    mastraSearch,
  ].map((c) => [c.name, c]),
);

/** Ours: failing the row fails the run (a peer failing is recorded as `unable`). */
export const OURS_IN_TASK: ReadonlySet<string> = new Set([
  pseudoclaudeAll.name,
  pseudoclaudeSearch.name,
  pseudoclaudeSearchHosted.name,
]);
