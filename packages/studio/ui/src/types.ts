/** The shapes the API answers with (docs/studio-api.md), as far as the page reads them. */

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

export interface Diagnostic {
  stage: string;
  severity: "error" | "warning" | "info";
  message: string;
  code?: string;
  source?: string;
  item?: string;
  file?: string;
  line?: number;
  column?: number;
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
  conversationLength: number;
}

export type ContentBlock =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string }
  | { type: "audio"; data: string; mimeType: string }
  | {
      type: "resource_link";
      uri: string;
      name?: string;
      title?: string;
      description?: string;
      mimeType?: string;
    }
  | {
      type: "resource";
      resource: { uri: string; mimeType?: string; text?: string; blob?: string };
    };

export interface ToolResult {
  ok: boolean;
  content: ContentBlock[];
  structured?: unknown;
  error?: { code: string; message: string };
  metadata?: Record<string, unknown>;
}

export interface CallOutcome {
  decision: Decision;
  approval?: "approved" | "rejected" | "no_approver";
  result: ToolResult;
}

export interface PendingApproval {
  id: string;
  kind: "approval";
  tool: string;
  source: string;
  safety: string;
  arguments: unknown;
  reason: string;
  sessionKey: string;
}

export interface PendingElicitation {
  id: string;
  kind: "elicitation";
  source: string;
  message: string;
  mode: "form" | "url";
  requestedSchema: JsonSchema;
  url?: string;
}

export interface ToolCall {
  id: string;
  name: string;
  arguments: unknown;
}

export interface SubAgentTag {
  agent: string;
  depth: number;
  parentCallId: string;
}

/** One event of a run, as the agent raised it (`type` is its name). */
export type RunEvent = { type: string; via?: SubAgentTag } & Record<string, unknown>;

export interface RunSummary {
  id: string;
  prompt: string;
  state: "running" | "done" | "failed" | "cancelled" | "direct";
  startedAt: string;
  endedAt?: string;
  eventCount: number;
  error?: string;
  result?: { text: string; turns: number; stopReason: string; usage: Usage; output?: unknown };
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
}

export interface StudioSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  startMs: number;
  endMs: number;
  status: "ok" | "error" | "unset";
  statusMessage?: string;
  attributes: Record<string, unknown>;
}
