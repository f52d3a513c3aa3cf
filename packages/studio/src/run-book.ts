import { randomUUID } from "node:crypto";
import {
  type Agent,
  type AgentStreamEvent,
  type JsonSchema,
  jsonSchemaOutput,
  RUN_EVENT_NAMES,
  type RunResult,
  UsageError,
} from "@pseudoclaude/core";
import type { StudioEvent } from "./event-hub.js";

/** A run started from the page, or `direct` for the tool calls made through the tool form. */
export interface StudioRun {
  id: string;
  prompt: string;
  /** `direct` for the calls of the tool form, which are no run of the model. */
  state: "running" | "done" | "failed" | "cancelled" | "direct";
  startedAt: string;
  endedAt?: string | undefined;
  /** The run's events in order (the agent's, with `type`; sub-agents' carry `via`). */
  events: AgentStreamEvent[];
  /** Events left out once a run had too many to keep (very long outputs). */
  droppedEvents: number;
  error?: string | undefined;
  result?: Pick<RunResult, "text" | "turns" | "stopReason" | "usage" | "output"> | undefined;
  /** The JSON Schema the final answer had to match, when the run asked for one. */
  outputSchema?: JsonSchema | undefined;
  /** The MCP App view whose message (`ui/message`) started the run, by its tool. */
  fromApp?: string | undefined;
  /** What views asked the model to know (`ui/update-model-context`), sent with this prompt. */
  appContext?: Array<{ app: string; text: string }> | undefined;
}

/** A run as the list shows it: everything but its events, and how many it has. */
export type StudioRunSummary = Omit<StudioRun, "events"> & { eventCount: number };

/** Runs kept for the timeline; older ones are forgotten (the session keeps the conversation). */
const MAX_RUNS = 50;
const MAX_EVENTS_PER_RUN = 20_000;
const DIRECT = "direct";

/**
 * The runs of this studio, one at a time as in a chat: each records the agent's events for the
 * timeline and relays them to the page as they come. Events outside a run (a call from the
 * tool form) are kept under the `direct` run.
 */
export class RunBook {
  private readonly runs = new Map<string, StudioRun>();
  private current: { run: StudioRun; controller: AbortController } | undefined;
  /** Each view's latest context for the next turn (a new update replaces the last). */
  private readonly appContexts = new Map<string, string>();
  private readonly detach: () => void;

  constructor(
    private readonly agent: Agent,
    private readonly publish: (event: StudioEvent) => void,
  ) {
    const offs = RUN_EVENT_NAMES.map((type) => {
      const listener = (payload: object) => this.record({ type, ...payload } as AgentStreamEvent);
      agent.on(type, listener as never);
      return () => agent.off(type, listener as never);
    });
    this.detach = () => {
      for (const off of offs) off();
    };
  }

  list(): StudioRunSummary[] {
    return [...this.runs.values()].map(summaryOf);
  }

  get(id: string): StudioRun | undefined {
    return this.runs.get(id);
  }

  /** The run in progress, if any. */
  running(): StudioRun | undefined {
    return this.current?.run;
  }

  /**
   * Start a run of `prompt`, its final answer checked against `outputSchema` when given (as
   * `run --output-schema`); throws `run_in_progress` while another runs.
   */
  start(prompt: string, outputSchema?: JsonSchema, fromApp?: string): StudioRun {
    if (this.current)
      throw new UsageError(
        "run_in_progress",
        `Run ${this.current.run.id} is still running: wait for it or cancel it first.`,
      );
    const appContext = [...this.appContexts].map(([app, text]) => ({ app, text }));
    this.appContexts.clear();
    const run: StudioRun = {
      id: randomUUID(),
      prompt,
      state: "running",
      startedAt: new Date().toISOString(),
      events: [],
      droppedEvents: 0,
      outputSchema,
      ...(fromApp ? { fromApp } : {}),
      ...(appContext.length > 0 ? { appContext } : {}),
    };
    const controller = new AbortController();
    this.keep(run);
    this.current = { run, controller };
    this.publish({ type: "run-state", run: summaryOf(run) });
    const output = outputSchema ? jsonSchemaOutput(outputSchema) : undefined;
    void this.agent
      .run(withAppContext(prompt, appContext), { signal: controller.signal, output })
      .then(
        (result) => {
          run.state = result.stopReason === "aborted" ? "cancelled" : "done";
          run.result = {
            text: result.text,
            turns: result.turns,
            stopReason: result.stopReason,
            usage: result.usage,
            ...(result.output !== undefined ? { output: result.output } : {}),
          };
          this.finish(run);
        },
        (error: unknown) => {
          run.state = controller.signal.aborted ? "cancelled" : "failed";
          run.error = error instanceof Error ? error.message : String(error);
          this.finish(run);
        },
      );
    return run;
  }

  /** Cancel the run in progress (as Ctrl-C in a chat); false when none runs. */
  cancel(id?: string): boolean {
    if (!this.current || (id !== undefined && this.current.run.id !== id)) return false;
    this.current.controller.abort(new Error("cancelled in the studio"));
    return true;
  }

  close(): void {
    this.cancel();
    this.detach();
  }

  /** A view's context for the next turn: replaces what the same view said before. */
  setAppContext(app: string, text: string): void {
    if (text === "") this.appContexts.delete(app);
    else this.appContexts.set(app, text);
  }

  private finish(run: StudioRun): void {
    run.endedAt = new Date().toISOString();
    if (this.current?.run === run) this.current = undefined;
    this.publish({ type: "run-state", run: summaryOf(run) });
  }

  private record(event: AgentStreamEvent): void {
    const run = this.current?.run ?? this.directRun();
    // Its place in the run, so a page that reads the run's events while new ones arrive can
    // put each where it belongs.
    const index = run.events.length;
    if (index >= MAX_EVENTS_PER_RUN) run.droppedEvents++;
    else run.events.push(event);
    this.publish({ type: "run-event", runId: run.id, index, event });
  }

  private directRun(): StudioRun {
    let run = this.runs.get(DIRECT);
    if (!run) {
      run = {
        id: DIRECT,
        prompt: "Calls from the Tools page",
        state: "direct",
        startedAt: new Date().toISOString(),
        events: [],
        droppedEvents: 0,
      };
      this.keep(run);
    }
    return run;
  }

  private keep(run: StudioRun): void {
    this.runs.set(run.id, run);
    for (const id of this.runs.keys()) {
      if (this.runs.size <= MAX_RUNS) break;
      if (id !== DIRECT && id !== this.current?.run.id) this.runs.delete(id);
    }
  }
}

/**
 * The prompt the model gets: the person's (or a view's) words, then what views asked the model
 * to know, each marked with its view, so the model can tell a view's context from the request.
 */
function withAppContext(prompt: string, contexts: Array<{ app: string; text: string }>): string {
  if (contexts.length === 0) return prompt;
  const blocks = contexts.map(
    ({ app, text }) => `<app-context view="${app}">\n${text}\n</app-context>`,
  );
  return `${prompt}\n\n${blocks.join("\n")}`;
}

function summaryOf({ events, ...summary }: StudioRun): StudioRunSummary {
  return { ...summary, eventCount: events.length };
}
