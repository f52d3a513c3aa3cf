import type { Agent, AgentEvents } from "@pseudoclaude/core";

type AgentListener<E extends keyof AgentEvents> = (...args: AgentEvents[E]) => void;

/** What one tool did since the studio started. */
export interface ToolStat {
  calls: number;
  errors: number;
  denied: number;
  totalMs: number;
  lastMs?: number | undefined;
}

/** Per-tool counters from the agent's events: runs, failures, denials and time. */
export class ToolStats {
  private readonly byTool = new Map<string, ToolStat>();
  private readonly detach: () => void;

  constructor(agent: Agent) {
    const onRunEnd: AgentListener<"tool-run-end"> = ({ call, result, durationMs }) => {
      const stat = this.stat(call.name);
      stat.calls++;
      if (!result.ok) stat.errors++;
      stat.totalMs += durationMs;
      stat.lastMs = durationMs;
    };
    const onDecision: AgentListener<"tool-decision"> = ({ call, decision, approval }) => {
      if (decision.verdict === "deny" || approval === "rejected" || approval === "no_approver")
        this.stat(call.name).denied++;
    };
    agent.on("tool-run-end", onRunEnd).on("tool-decision", onDecision);
    this.detach = () => agent.off("tool-run-end", onRunEnd).off("tool-decision", onDecision);
  }

  dispose(): void {
    this.detach();
  }

  get(name: string): ToolStat | undefined {
    return this.byTool.get(name);
  }

  private stat(name: string): ToolStat {
    let stat = this.byTool.get(name);
    if (!stat) {
      stat = { calls: 0, errors: 0, denied: 0, totalMs: 0 };
      this.byTool.set(name, stat);
    }
    return stat;
  }
}
