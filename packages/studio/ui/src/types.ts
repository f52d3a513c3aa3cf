/**
 * The shapes the API answers with (docs/studio-api.md). Those the server defines come from its
 * own packages (types only: nothing of them is bundled), so the page cannot drift from them.
 */
import type { ContentBlock, Diagnostic, ToolResult, ToolState } from "@pseudoclaude/core";
import type { ProviderUsage } from "@pseudoclaude/core/provider";
import type {
  PendingApproval,
  PendingElicitation,
  StudioRunSummary,
  StudioSpan,
  StudioToolSearch,
} from "@pseudoclaude/studio";

export type {
  ContentBlock,
  Diagnostic,
  PendingApproval,
  PendingElicitation,
  StudioSpan,
  ToolResult,
  ToolState,
};
/** `GET /api/tools` `toolSearch`. */
export type ToolSearchInfo = StudioToolSearch;
export type RunSummary = StudioRunSummary;
export type Usage = ProviderUsage;

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  default?: unknown;
  description?: string;
  title?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  format?: string;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  const?: unknown;
};

export interface Decision {
  verdict: "allow" | "ask" | "deny";
  reason: string;
}

export interface ToolStat {
  calls: number;
  errors: number;
  denied: number;
  totalMs: number;
  lastMs?: number;
}

export interface ToolIcon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: string;
}

export interface ToolInfo {
  name: string;
  title: string | null;
  description: string;
  source: string;
  safety: string;
  aliases: string[];
  icons: ToolIcon[];
  inputSchema: JsonSchema;
  annotations: Record<string, unknown> | null;
  meta: Record<string, unknown>;
  appUri: string | null;
  offered: boolean;
  /** How the model sees an offered tool; null when the policy does not offer it. */
  state: ToolState | null;
  decision: Decision;
  stats: ToolStat | null;
  diagnostics: Diagnostic[];
}

export interface SourceReport {
  id: string;
  status: {
    state: string;
    stats?: Record<string, number>;
    message?: string;
    parts?: Array<{ name: string; state: string; message?: string }>;
  };
}

export interface AgentInfo {
  workspace: string;
  provider: string | null;
  model: string | null;
  mode: string;
  modes: string[];
  sessionId: string | null;
  tools: number;
  offered: number;
  sources: SourceReport[];
  running: string | null;
  systemPrompt: string;
  /** The system prompt's size in estimated tokens. */
  systemPromptTokens: number;
  conversationLength: number;
}

export interface CallOutcome {
  decision: Decision;
  approval?: "approved" | "rejected" | "no_approver";
  result: ToolResult;
}

export interface ToolCall {
  id: string;
  name: string;
  arguments: unknown;
  /** The call that made this one: a code-mode program's. */
  parentId?: string;
}

export interface SubAgentTag {
  agent: string;
  depth: number;
  parentCallId: string;
}

/** One event of a run, as the agent raised it (`type` is its name). */
export type RunEvent = { type: string; via?: SubAgentTag } & Record<string, unknown>;
