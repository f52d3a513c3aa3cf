import type { Contender } from "../contender.js";
import { aiSdk } from "./ai-sdk.js";
import { langchain } from "./langchain.js";
import { mastra } from "./mastra.js";
import { openaiAgents } from "./openai-agents.js";
import { pseudoclaude } from "./pseudoclaude.js";
import { rawSdk } from "./raw-sdk.js";

/** Every contender by name; `raw-sdk` is the baseline each figure is divided by. */
export const CONTENDERS: Readonly<Record<string, Contender>> = Object.fromEntries(
  [rawSdk, pseudoclaude, aiSdk, langchain, mastra, openaiAgents].map((c) => [c.name, c]),
);
