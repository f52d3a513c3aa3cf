import { createHash, randomUUID } from "node:crypto";
import {
  type CallToolResult,
  type InputRequiredResult,
  inputRequired,
  inputResponse,
  ProtocolError,
  ProtocolErrorCode,
  type RequestStateCodec,
  type ServerContext,
} from "@modelcontextprotocol/server";
import {
  type Agent,
  type CallToolOutcome,
  type ElicitationResponse,
  type Elicitor,
  PolicyEngine,
  type ToolDefinition,
  type ToolResult,
} from "@pseudoclaude/core";
import { visibleToModel } from "@pseudoclaude/core/plugin";
import type { AuditLog, AuditRecord } from "./audit-log.js";
import { type CallContext, clientCanElicit, clientHostsApps, who } from "./call-context.js";
import type { ClientAnswer, ClientApprovals } from "./client-approvals.js";
import type { GatewayAskMode, GatewayExposeMode } from "./gateway-section.js";
import { clientHasTasks, type GatewayTasks, tasksRequired } from "./gateway-tasks.js";
import { type ExposedTool, type GatewayTools, taskSupportOf } from "./gateway-tools.js";

/** The key of the gateway's one question in a multi-round-trip call. */
export const APPROVAL_INPUT = "approve";

/** What the gateway signs into `requestState` when it asks: the call the answer is for. */
export interface ApprovalState {
  tool: string;
  args: string;
}

/** How long an approval question stays answerable. */
export const APPROVAL_TTL_SECONDS = 600;

const MAX_ARGUMENTS_SHOWN = 1_000;

export interface GatewayCallsDeps {
  agent: Agent;
  tools: GatewayTools;
  approvals: ClientApprovals;
  codec: RequestStateCodec<ApprovalState>;
  ask: GatewayAskMode;
  /** Only for what an unknown tool's error points to: the list, or the search. */
  exposeMode: GatewayExposeMode;
  audit: AuditLog | undefined;
  tasks: GatewayTasks;
}

/**
 * `tools/call` through the agent: the policy decides, a call it would ask about is asked of
 * the client (elicitation, in either era through the SDK's multi-round-trip idiom), then
 * `agent.callTool` runs it with the same hooks, timeouts and redaction as a model's call.
 * The answer is bound to the call it was asked for: `requestState` carries the tool and a hash
 * of its arguments under the gateway's HMAC, so an answer cannot be replayed for other
 * arguments, and an answer nobody asked for is not taken.
 */
export class GatewayCalls {
  private readonly policy: PolicyEngine;

  constructor(private readonly deps: GatewayCallsDeps) {
    this.policy = deps.agent.resolve<PolicyEngine>(PolicyEngine);
  }

  async call(
    params: { name: string; arguments?: Record<string, unknown> | undefined },
    ctx: ServerContext,
    where: CallContext,
    /** The client's model asked (search mode's `call_tool`): never a tool only views may call. */
    byModel = false,
  ): Promise<CallToolResult | InputRequiredResult> {
    const started = performance.now();
    // A client that renders MCP Apps may call the tools only its views may (for a view).
    const exposed = this.deps.tools.get(
      params.name,
      !byModel && clientHostsApps(ctx, where.server),
    );
    if (!exposed)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Unknown tool: ${params.name} (${this.deps.exposeMode === "search" ? "search_tools finds" : "tools/list names"} the tools this gateway exports).`,
      );
    // A tool that runs as a task (2026-07-28 clients that declared the Tasks extension) answers
    // with the task at once; one that must run as a task is refused to every other client.
    const taskSupport = where.era === "2026-07-28" ? taskSupportOf(exposed.definition) : undefined;
    const asTask = taskSupport !== undefined && clientHasTasks(ctx);
    if (taskSupport === "required" && !asTask) throw tasksRequired(`Tool ${exposed.name}`);
    const args = params.arguments ?? {};
    const audit = (fields: Pick<AuditRecord, "decision" | "outcome"> & Partial<AuditRecord>) =>
      this.record(exposed, args, ctx, where, started, fields);
    let answer = await this.answerFor(exposed.definition, args, ctx);
    if (answer.kind === "none") {
      const verdict = await this.preview(exposed.definition, args);
      if (verdict.verdict === "ask") {
        const refusal = this.refusal(exposed, ctx, where);
        if (refusal) {
          audit({ decision: "refused", reason: refusal, outcome: "error" });
          return { isError: true, content: [{ type: "text", text: refusal }] };
        }
        audit({ decision: "ask", reason: verdict.reason, outcome: "input_required" });
        return inputRequired({
          inputRequests: {
            [APPROVAL_INPUT]: inputRequired.elicit({
              mode: "form",
              message: question(exposed, args, verdict.reason),
              requestedSchema: {
                type: "object",
                properties: {
                  allow: { type: "boolean", title: `Allow ${exposed.name}`, default: false },
                },
                required: ["allow"],
              },
            }),
          },
          requestState: await this.deps.codec.mint(
            { tool: exposed.definition.name, args: argumentsHash(args) },
            ctx,
          ),
        });
      }
      answer = { kind: "none" };
    }
    if (asTask) {
      const task = this.deps.tasks.start(who(ctx, where.server).principal, (signal) =>
        this.run(exposed, args, answer, where, signal, undefined, audit, true),
      );
      return { resultType: "task", ...task } as unknown as CallToolResult;
    }
    return this.run(exposed, args, answer, where, ctx.mcpReq.signal, ctx, audit);
  }

  /**
   * Run an allowed (or answered) call through the agent and record it. `ctx` is the request's
   * when the result goes back on it (progress is relayed then), undefined for a task's run.
   */
  private async run(
    exposed: ExposedTool,
    args: Record<string, unknown>,
    answer: ClientAnswer,
    where: CallContext,
    signal: AbortSignal,
    ctx: ServerContext | undefined,
    audit: (fields: Pick<AuditRecord, "decision" | "outcome"> & Partial<AuditRecord>) => void,
    protocolErrors = false,
  ): Promise<CallToolResult> {
    const progressToken = ctx?.mcpReq._meta?.progressToken;
    let outcome: CallToolOutcome;
    // An upstream server's question during this call goes to this client: on a 2025-11-25
    // request it can be asked (2026-07-28 would need the call to end in inputRequired first).
    const questions = ctx && where.era === "2025-11-25" ? upstreamQuestions(ctx, where) : undefined;
    const ask = questions
      ? { source: exposed.definition.source, client: where.server, ask: questions }
      : undefined;
    try {
      outcome = await this.deps.approvals.with(
        answer,
        (approver) =>
          this.deps.agent.callTool(exposed.definition.name, args, {
            signal,
            approver,
            // Only a view calls a tool no model sees: the kernel holds it to its own server's.
            ...(visibleToModel(exposed.definition)
              ? {}
              : { fromApp: { source: exposed.definition.source } }),
            onProgress:
              progressToken === undefined
                ? undefined
                : (progress) => {
                    void ctx?.mcpReq
                      .notify({
                        method: "notifications/progress",
                        params: { progressToken, ...progress },
                      })
                      .catch(() => undefined);
                  },
          }),
        ask,
      );
    } catch (error) {
      audit({ decision: "allow", outcome: "error", error: String(error) });
      throw error;
    }
    const { decision, approval, result } = outcome;
    const failed = result.ok ? undefined : result.error;
    audit({
      decision:
        approval === "approved"
          ? "approved"
          : approval === "rejected" || approval === "no_approver"
            ? "rejected"
            : decision.verdict === "deny"
              ? "deny"
              : "allow",
      reason: decision.reason,
      outcome: result.ok ? "ok" : "error",
      ...(failed ? { error: `${failed.code}: ${failed.message}` } : {}),
    });
    // A task's call that never got the tool's answer (transport, protocol) fails the task;
    // a tool that ran and failed completes it with `isError`, as SEP-2663 separates them.
    if (protocolErrors && failed?.code === "mcp_call_error")
      throw new ProtocolError(ProtocolErrorCode.InternalError, failed.message);
    return where.server.projectCallToolResult(callToolResult(result), undefined);
  }

  /** The policy's verdict for these arguments, without asking anyone or running anything. */
  private async preview(definition: ToolDefinition, args: Record<string, unknown>) {
    try {
      return await this.policy.decide(definition, args);
    } catch {
      // The call itself fails closed on an engine error; nothing to ask about first.
      return { verdict: "deny" as const, reason: "" };
    }
  }

  /** Why a call needing approval cannot be asked, or undefined when it can. */
  private refusal(exposed: ExposedTool, ctx: ServerContext, where: CallContext) {
    const fix = `To let it run without asking, add an allow rule for "${exposed.definition.name}" to permissions in your config (docs/permissions.md).`;
    if (this.deps.ask === "refuse")
      return `Tool ${exposed.name} needs approval, and this gateway does not ask (gateway.ask: refuse). ${fix}`;
    if (!clientCanElicit(ctx, where.server))
      return `Tool ${exposed.name} needs approval, and this client cannot answer (it did not declare elicitation). ${fix}`;
    return undefined;
  }

  /**
   * The client's answer to our question, when it is for this very call: signed by this gateway
   * (the SDK verified the HMAC before the handler ran), for this tool and these arguments.
   */
  private async answerFor(
    definition: ToolDefinition,
    args: Record<string, unknown>,
    ctx: ServerContext,
  ): Promise<ClientAnswer> {
    const view = inputResponse(ctx.mcpReq.inputResponses, APPROVAL_INPUT);
    if (view.kind === "missing") return { kind: "none" };
    const state = ctx.mcpReq.requestState<ApprovalState>();
    if (
      !state ||
      typeof state !== "object" ||
      state.tool !== definition.name ||
      state.args !== argumentsHash(args)
    )
      return { kind: "none" };
    if (view.kind === "elicit" && view.action === "accept" && view.content?.allow === true)
      return { kind: "answered", verdict: "allow", reason: "approved by the client" };
    const why =
      view.kind !== "elicit"
        ? "the client answered something else"
        : view.action === "accept"
          ? "the client's person did not allow it"
          : `the client's person chose ${view.action}`;
    return { kind: "answered", verdict: "deny", reason: why };
  }

  private record(
    exposed: ExposedTool,
    args: Record<string, unknown>,
    ctx: ServerContext,
    where: CallContext,
    started: number,
    fields: Pick<AuditRecord, "decision" | "outcome"> & Partial<AuditRecord>,
  ): void {
    this.deps.audit?.record({
      time: new Date().toISOString(),
      kind: "call",
      transport: where.transport,
      era: where.era,
      who: who(ctx, where.server),
      what: {
        name: exposed.name,
        tool: exposed.definition.name,
        source: exposed.definition.source,
        arguments: args,
      },
      durationMs: Math.round(performance.now() - started),
      ...fields,
    });
  }
}

/**
 * Put an upstream server's elicitation to the gateway's client, saying which server asks. A
 * mode the client did not declare is declined without asking.
 */
function upstreamQuestions(ctx: ServerContext, where: CallContext): Elicitor | undefined {
  if (!clientCanElicit(ctx, where.server) && !clientCanElicit(ctx, where.server, "url"))
    return undefined;
  return async (request) => {
    const mode = request.mode ?? "form";
    if (!clientCanElicit(ctx, where.server, mode)) return { action: "decline" };
    const message = `${request.source} asks: ${request.message}`;
    const result = await ctx.mcpReq.elicitInput(
      mode === "url"
        ? { mode, message, url: request.url ?? "", elicitationId: randomUUID() }
        : { mode, message, requestedSchema: request.requestedSchema as never },
      request.signal ? { signal: request.signal } : undefined,
    );
    return {
      action: result.action,
      content: result.content as ElicitationResponse["content"],
    };
  };
}

/** A hash of the arguments, stable across key order. */
export function argumentsHash(args: unknown): string {
  return createHash("sha256").update(canonicalJson(args)).digest("base64url");
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .map(
        (key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`,
      )
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

function question(exposed: ExposedTool, args: Record<string, unknown>, reason: string): string {
  let shown = JSON.stringify(args);
  if (shown.length > MAX_ARGUMENTS_SHOWN) shown = `${shown.slice(0, MAX_ARGUMENTS_SHOWN)}…`;
  const origin =
    exposed.name === exposed.definition.name
      ? `from ${exposed.definition.source}`
      : `${exposed.definition.name} from ${exposed.definition.source}`;
  return `Allow ${exposed.name} (${origin}) with ${shown}? ${reason}`.trim();
}

/** Our result as MCP's: the same content kinds, the structured value, failures as `isError`. */
export function callToolResult(result: ToolResult): CallToolResult {
  const mcp: CallToolResult = { content: result.content as CallToolResult["content"] };
  const structured = result.structured;
  if (structured && typeof structured === "object" && !Array.isArray(structured))
    mcp.structuredContent = structured as Record<string, unknown>;
  if (!result.ok) mcp.isError = true;
  return mcp;
}
