import type { AgentEvents } from "../contracts/agent-events.js";
import type { AgentTracer } from "../tracing/agent-tracer.js";
import type { AgentSettings } from "./agent.js";
import type { CompactionDeps } from "./compaction-step.js";
import type { OfferedTools } from "./offered-tools.js";
import type { ToolCallStepDeps } from "./tool-call-step.js";

/**
 * What the stages of a run share of their agent: made once by the agent and handed to the
 * loop, the model step, the tool step and compaction, so none of them calls back into the
 * agent.
 */
export interface AgentRuntime extends CompactionDeps {
  readonly settings: AgentSettings;
  readonly offered: OfferedTools;
  readonly tracer: AgentTracer;
  /** What every turn's tool calls share. */
  readonly calls: ToolCallStepDeps;
  emit<E extends keyof AgentEvents>(event: E, payload: AgentEvents[E][0]): void;
  /**
   * Undefined when every source's tools are current; else a promise that resolves once they
   * are (a server's list_changed listed again), bounded so a slow source cannot stall a run.
   */
  sourcesCurrent(): Promise<void> | undefined;
}
