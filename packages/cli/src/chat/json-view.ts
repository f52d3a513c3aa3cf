import type { Agent, SubAgentTag } from "@pseudoclaude/core";
import type { TextSink } from "../cli-io.js";
import { diagnosticsToJson, toolCallToJson, usageToJson } from "../json-output.js";

/**
 * `chat --json`: one JSON object per line on stdout, for programs driving the chat. Every
 * object has `type`; the agent's events keep their names (`text-delta`, `tool-call-end` ...),
 * and the chat adds `ready`, `source-ready`, `user`, `command`, `note`, `error` and `exit`.
 */
export class JsonView {
  private readonly started = new Map<string, number>();

  /** The sub-agent of the event being written, if it is one's. */
  private via: SubAgentTag | undefined;

  constructor(
    agent: Agent,
    private readonly out: TextSink,
  ) {
    // Every event of a sub-agent carries its `via`, as the kernel gives it.
    const on = agent.on.bind(agent);
    agent = {
      on: (event: string, listener: (payload: { via?: SubAgentTag }) => void) =>
        on(
          event as never,
          ((payload: { via?: SubAgentTag }) => {
            this.via = payload?.via;
            try {
              listener(payload);
            } finally {
              this.via = undefined;
            }
          }) as never,
        ),
    } as unknown as Agent;
    agent.on("run-start", ({ prompt }) => this.emit("run-start", { prompt }));
    agent.on(
      "turn-start",
      ({ turn, tools, estimatedTokens, toolSearch, deferredTools, toolTokens }) =>
        this.emit("turn-start", {
          turn,
          tools,
          estimated_tokens: estimatedTokens,
          tool_search: toolSearch,
          deferred_tools: deferredTools,
          tool_tokens: toolTokens,
        }),
    );
    agent.on("tool-search", ({ turn, engine, query, found }) =>
      this.emit("tool-search", { turn, engine, query, found }),
    );
    agent.on("compaction", (event) =>
      this.emit("compaction", {
        turn: event.turn,
        stage: event.stage,
        tokens_before: event.tokensBefore,
        tokens_after: event.tokensAfter,
        window: event.window ?? null,
        stubbed_results: event.stubbedResults,
        summarized_messages: event.summarizedMessages,
      }),
    );
    agent.on("text-delta", ({ turn, text }) => this.emit("text-delta", { turn, text }));
    agent.on("reasoning-delta", ({ turn, text }) => this.emit("reasoning-delta", { turn, text }));
    agent.on("tool-call-start", ({ turn, call }) => {
      this.started.set(call.id, performance.now());
      this.emit("tool-call-start", {
        turn,
        id: call.id,
        name: call.name,
        arguments: call.arguments,
        ...(call.parentId ? { parent_id: call.parentId } : {}),
      });
    });
    agent.on("tool-decision", ({ turn, call, decision, approval, waitedMs }) =>
      this.emit("tool-decision", {
        turn,
        id: call.id,
        decision: decision.verdict,
        reason: decision.reason,
        ...(approval ? { approval } : {}),
        ...(waitedMs !== undefined ? { approval_wait_ms: Math.round(waitedMs) } : {}),
      }),
    );
    // A call's own run, as it happens: tool-call-end comes after every call of the turn.
    agent.on("tool-run-start", ({ turn, call }) =>
      this.emit("tool-run-start", { turn, id: call.id, name: call.name }),
    );
    agent.on("tool-run-end", ({ turn, call, result, durationMs }) =>
      this.emit("tool-run-end", {
        turn,
        id: call.id,
        name: call.name,
        ok: result.ok,
        ...(result.error ? { error_code: result.error.code } : {}),
        duration_ms: Math.round(durationMs),
      }),
    );
    agent.on("tool-progress", ({ turn, call, progress }) =>
      this.emit("tool-progress", { turn, id: call.id, ...progress }),
    );
    agent.on("tool-task", ({ turn, call, task }) =>
      this.emit("tool-task", {
        turn,
        id: call.id,
        task_id: task.taskId,
        status: task.status,
        ...(task.statusMessage !== undefined ? { status_message: task.statusMessage } : {}),
      }),
    );
    agent.on("tool-call-end", ({ turn, call, record }) => {
      const began = this.started.get(call.id);
      this.started.delete(call.id);
      this.emit("tool-call-end", {
        turn,
        ...toolCallToJson(record),
        ...(began !== undefined ? { duration_ms: Math.round(performance.now() - began) } : {}),
      });
    });
    agent.on("turn-end", ({ turn, text, toolCalls, stopReason, usage }) =>
      this.emit("turn-end", {
        turn,
        text,
        tool_calls: toolCalls,
        stop_reason: stopReason ?? null,
        usage: usageToJson(usage),
      }),
    );
    agent.on("run-end", (result) =>
      this.emit("run-end", {
        text: result.text,
        turns: result.turns,
        stop_reason: result.stopReason,
        usage: usageToJson(result.usage),
      }),
    );
    agent.on("diagnostic", (diagnostic) =>
      this.emit("diagnostic", { diagnostic: diagnosticsToJson([diagnostic])[0] }),
    );
  }

  emit(type: string, fields: Record<string, unknown> = {}): void {
    const via = this.via
      ? {
          via: {
            agent: this.via.agent,
            depth: this.via.depth,
            parent_call_id: this.via.parentCallId,
          },
        }
      : {};
    this.out.write(`${JSON.stringify({ type, ...fields, ...via })}\n`);
  }
}
