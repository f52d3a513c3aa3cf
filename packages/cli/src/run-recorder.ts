import type { ToolCallRecord } from "@pseudoclaude/core";
import type { ProviderUsage } from "@pseudoclaude/core/provider";
import type { AgentEventSource } from "./render-run.js";

/**
 * Follows a run through its events, so that when the provider fails part-way the JSON output
 * can still say what happened before (turns, tool calls, the text so far).
 */
export class RunRecorder {
  turns = 0;
  text = "";
  readonly toolCalls: ToolCallRecord[] = [];
  readonly usage: ProviderUsage = {};

  constructor(agent: AgentEventSource) {
    agent.on("turn-start", ({ turn }) => {
      this.turns = turn;
      this.text = "";
    });
    agent.on("text-delta", ({ text }) => {
      this.text += text;
    });
    agent.on("tool-call-end", ({ record }) => {
      this.toolCalls.push(record);
    });
    agent.on("turn-end", ({ usage }) => {
      for (const [key, value] of Object.entries(usage) as Array<[keyof ProviderUsage, number]>) {
        if (typeof value === "number") this.usage[key] = (this.usage[key] ?? 0) + value;
      }
    });
  }
}
