/** The JSON the CLI prints (`--json`, `call`, `run`): one function per public shape. */
import type {
  CallToolOutcome,
  Diagnostic,
  SourceReport,
  ToolAudience,
  ToolCallRecord,
  ToolDefinition,
  ToolResult,
  ToolSearchEngineInUse,
  ToolState,
} from "@pseudoclaude/core";
import { type OutputIssue, PseudoClaudeError, StructuredOutputError } from "@pseudoclaude/core";
import type { ProviderUsage } from "@pseudoclaude/core/provider";
import type { ToolSearchReport } from "./tool-search-report.js";

/** The public JSON form of a ToolResult: `{ ok, content, structured?, error?, metadata }`. */
export interface ToolResultJson {
  ok: boolean;
  content: ToolResult["content"];
  structured?: unknown;
  error?: { code: string; message: string };
  metadata: Record<string, unknown>;
}

/** Project a ToolResult to its JSON form, in a fixed key order and without extra keys. */
export function toolResultToJson(result: ToolResult): ToolResultJson {
  return {
    ok: result.ok,
    content: result.content,
    ...(result.structured !== undefined ? { structured: result.structured } : {}),
    ...(result.error ? { error: { code: result.error.code, message: result.error.message } } : {}),
    metadata: result.metadata ?? {},
  };
}

/** `pseudoclaude call --json`: the ToolResult plus the policy decision and approval. */
export function callOutcomeToJson(outcome: CallToolOutcome) {
  const { decision } = outcome;
  return {
    ...toolResultToJson(outcome.result),
    decision: { decision: decision.verdict, reason: decision.reason, matched: decision.matched },
    ...(outcome.approval ? { approval: outcome.approval } : {}),
  };
}

/** One registry entry of `pseudoclaude tools --json`; snake_case like the rest of the JSON. */
export interface ToolJson {
  name: string;
  source: string;
  safety: ToolDefinition["safety"];
  description: string;
  input_schema: ToolDefinition["inputSchema"];
  annotations?: ToolDefinition["annotations"];
  title?: string;
  icons?: ToolDefinition["icons"];
  /** The source's facts about the tool (an MCP tool: `server`, `remote_name`, `remote_meta`, …). */
  meta?: Record<string, unknown>;
  /**
   * Who may call it: `model` (offered to models, found by search) and `app` (its own server's
   * MCP App views). An app-only tool is `["app"]` and never `offered`.
   */
  audience: ToolAudience[];
  /** Whether the model sees the tool: the policy offers it and its audience includes the model. */
  offered: boolean;
  /**
   * How the model sees an offered tool: `loaded` (its definition sent on every request),
   * `deferred` (known to tool search only) or `found` (loaded by a search); `null` for a tool
   * the policy does not offer. `tools --json` always sets it.
   */
  state?: ToolState | null;
}

/** Project a tool definition for `tools --json`; `state` is left out when not given. */
export function toolDefinitionToJson(
  definition: ToolDefinition,
  offered: boolean,
  state?: ToolState | null,
): ToolJson {
  return {
    name: definition.name,
    source: definition.source,
    safety: definition.safety,
    description: definition.description,
    input_schema: definition.inputSchema,
    ...(definition.annotations ? { annotations: definition.annotations } : {}),
    ...(definition.title ? { title: definition.title } : {}),
    ...(definition.icons ? { icons: definition.icons } : {}),
    ...(definition.meta ? { meta: definition.meta } : {}),
    audience: definition.audience ? [...definition.audience] : ["model", "app"],
    offered,
    ...(state !== undefined ? { state } : {}),
  };
}

/** `tools --json` `tool_search`: who searches, why, the tools per state and their tokens. */
export interface ToolSearchJson {
  engine: ToolSearchEngineInUse;
  reason: string;
  loaded: number;
  deferred: number;
  found: number;
  tokens: { sent: number; all: number };
}

/** Project a tool-search report for `tools --json`. */
export function toolSearchToJson(report: ToolSearchReport): ToolSearchJson {
  return {
    engine: report.engine,
    reason: report.reason,
    loaded: report.loaded,
    deferred: report.deferred,
    found: report.found,
    tokens: { sent: report.tokens.sent, all: report.tokens.all },
  };
}

/** One tool source of `tools --json`: `{ id, state, stats, parts? }`. */
export function sourceToJson(report: SourceReport) {
  return {
    id: report.id,
    state: report.status.state,
    stats: report.status.stats,
    ...(report.status.parts
      ? {
          parts: report.status.parts.map(({ protocolVersion, ...part }) => ({
            ...part,
            ...(protocolVersion ? { protocol_version: protocolVersion } : {}),
          })),
        }
      : {}),
  };
}

/** Diagnostics are already plain, redacted data; copy them so later additions do not leak in. */
export function diagnosticsToJson(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.map((diagnostic) => ({ ...diagnostic }));
}

/** One entry of `run --json` `tool_calls`: the verdict and the result the model saw. */
export function toolCallToJson(record: ToolCallRecord) {
  return {
    id: record.id,
    name: record.name,
    arguments: record.arguments,
    decision: record.decision.verdict,
    reason: record.decision.reason,
    ...(record.approval ? { approval: record.approval } : {}),
    result: toolResultToJson(record.result),
  };
}

/** Token usage in snake_case; counters the provider did not report are left out. */
/** What a run did so far or in all: the fields `run --json` prints. */
export interface RunSoFar {
  text: string;
  turns: number;
  /** A RunResult's stop reason, or `error` when the run failed. */
  stopReason: string;
  toolCalls: readonly ToolCallRecord[];
  usage: ProviderUsage;
}

/**
 * The document `run --json` prints, in its key order; `extra` (`output`, `error`,
 * `invocation_id`) comes last.
 */
export function runToJson(
  run: RunSoFar,
  diagnostics: readonly Diagnostic[],
  sessionId: string | undefined,
  extra: Record<string, unknown> = {},
) {
  return {
    text: run.text,
    turns: run.turns,
    stop_reason: run.stopReason,
    tool_calls: run.toolCalls.map(toolCallToJson),
    usage: usageToJson(run.usage),
    diagnostics: diagnosticsToJson(diagnostics),
    session_id: sessionId,
    ...extra,
  };
}

export function usageToJson(usage: ProviderUsage): Record<string, number> {
  const json: Record<string, number> = {};
  if (usage.inputTokens !== undefined) json.input_tokens = usage.inputTokens;
  if (usage.outputTokens !== undefined) json.output_tokens = usage.outputTokens;
  if (usage.cacheReadTokens !== undefined) json.cache_read_tokens = usage.cacheReadTokens;
  if (usage.cacheWriteTokens !== undefined) json.cache_write_tokens = usage.cacheWriteTokens;
  return json;
}

/** `{ code, message }` of any error, for the `error` field of JSON output. */
export function errorToJson(error: unknown): {
  code: string;
  message: string;
  raw?: string;
  issues?: OutputIssue[];
  suggestion?: string;
} {
  if (error instanceof StructuredOutputError)
    // What the model wrote and where it missed the schema, for a program to act on.
    return { code: error.code, message: error.message, raw: error.raw, issues: [...error.issues] };
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    // What a mistyped command, option or tool most likely meant, for a program to offer.
    const suggestion = PseudoClaudeError.is(error) ? error.details.suggestion : undefined;
    return {
      code: typeof code === "string" ? code : "internal_error",
      message: error.message,
      ...(typeof suggestion === "string" ? { suggestion } : {}),
    };
  }
  return { code: "internal_error", message: String(error) };
}
