import type { Contender } from "../contender.js";
import { aiSdk } from "./ai-sdk.js";
import { langchain } from "./langchain.js";
import { mastra } from "./mastra.js";
import { openaiAgents } from "./openai-agents.js";
import { pseudoclaude } from "./pseudoclaude.js";
import { rawSdk } from "./raw-sdk.js";
import { rawV2 } from "./raw-v2.js";

/**
 * Every contender by name; `raw-sdk` is the baseline of the 2025-11-25 rows, `raw-v2` of the
 * 2026-07-28 rows (each row's `baseline`), each figure divided by its row's.
 */
export const CONTENDERS: Readonly<Record<string, Contender>> = Object.fromEntries(
  [rawSdk, rawV2, pseudoclaude, aiSdk, langchain, mastra, openaiAgents].map((c) => [c.name, c]),
);
