import type { Contender } from "../contender.js";
import { aiSdk } from "./ai-sdk.js";
import { bareProxy, gateway, gatewayAudit } from "./gateway.js";
import { langchain } from "./langchain.js";
import { mastra } from "./mastra.js";
import { openaiAgents } from "./openai-agents.js";
import { pseudoclaude, pseudoclaudeCheckout, pseudoclaudeTraced } from "./pseudoclaude.js";
import { rawSdk } from "./raw-sdk.js";
import { rawSdkTraced } from "./raw-sdk-traced.js";
import { rawV2 } from "./raw-v2.js";

/**
 * Every contender by name; `raw-sdk` is the baseline of the 2025-11-25 rows, `raw-v2` of the
 * 2026-07-28 rows (each row's `baseline`), each figure divided by its row's.
 */
export const CONTENDERS: Readonly<Record<string, Contender>> = Object.fromEntries(
  [
    rawSdk,
    rawV2,
    pseudoclaude,
    pseudoclaudeCheckout,
    pseudoclaudeTraced,
    rawSdkTraced,
    aiSdk,
    langchain,
    mastra,
    openaiAgents,
    gateway,
    gatewayAudit,
    bareProxy,
  ].map((c) => [c.name, c]),
);

/**
 * Contenders that run only in rows naming them (`only`): the gateway is a server between a
 * client and its servers, not a client framework, so the other rows are not its to run; the
 * traced ones are there for the traced row.
 */
export const NAMED_ONLY: ReadonlySet<string> = new Set([
  gateway.name,
  gatewayAudit.name,
  bareProxy.name,
  pseudoclaudeTraced.name,
  rawSdkTraced.name,
]);

/** Contenders a run has only when `--contenders` names them (ours from another checkout). */
export const ON_REQUEST: ReadonlySet<string> = new Set([pseudoclaudeCheckout.name]);

/** Ours: failing a row, or leaving a server running, fails the run. */
export const OURS: ReadonlySet<string> = new Set([
  "pseudoclaude",
  pseudoclaudeTraced.name,
  gateway.name,
  gatewayAudit.name,
]);
