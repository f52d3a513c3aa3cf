import { signal } from "@preact/signals";
import { api, type FeedEvent } from "./api.js";
import type {
  AgentInfo,
  PendingApproval,
  PendingElicitation,
  RunEvent,
  RunSummary,
  ToolInfo,
  ToolSearchInfo,
} from "./types.js";

/** What every page shares, kept live by the event feed. */
export const agentInfo = signal<AgentInfo | undefined>(undefined);
export const tools = signal<ToolInfo[]>([]);
/** Tool search as the next request would use it (`GET /api/tools`). */
export const toolSearch = signal<ToolSearchInfo | undefined>(undefined);
export const pending = signal<Array<PendingApproval | PendingElicitation>>([]);
export const runs = signal<RunSummary[]>([]);
/** Events per run; replaced (not mutated) on each event so views update. */
export const runEvents = signal<Record<string, RunEvent[]>>({});
export const connected = signal(false);
export const spansVersion = signal(0);
export const notices = signal<string[]>([]);

export function notice(text: string): void {
  notices.value = [...notices.value.slice(-4), text];
}

export async function refreshAgent(): Promise<void> {
  agentInfo.value = await api<AgentInfo>("/api/agent");
}

export async function refreshTools(): Promise<void> {
  const answer = await api<{ tools: ToolInfo[]; toolSearch: ToolSearchInfo }>("/api/tools");
  tools.value = answer.tools;
  toolSearch.value = answer.toolSearch;
}

export async function refreshPending(): Promise<void> {
  pending.value = (
    await api<{ pending: Array<PendingApproval | PendingElicitation> }>("/api/approvals")
  ).pending;
}

export async function refreshRuns(): Promise<void> {
  runs.value = (await api<{ runs: RunSummary[] }>("/api/runs")).runs;
}

/** A run's events from the server (a run started before the page opened). */
export async function loadRunEvents(id: string): Promise<void> {
  const run = await api<{ events: RunEvent[] }>(`/api/runs/${encodeURIComponent(id)}`);
  // Events that arrived on the feed while this was read are kept at their places.
  const merged = [...run.events];
  (runEvents.value[id] ?? []).forEach((event, index) => {
    if (event) merged[index] = event;
  });
  runEvents.value = { ...runEvents.value, [id]: merged };
}

let toolsTimer: number | undefined;

/**
 * Run events arrive by the hundred while a model streams: they are applied once per frame,
 * so the lists are copied and the timeline rebuilt per frame rather than per event.
 */
const arrived = new Map<string, Array<[number, RunEvent]>>();
let scheduled = false;

function queueRunEvent(runId: string, index: number, event: RunEvent): void {
  const list = arrived.get(runId) ?? [];
  list.push([index, event]);
  arrived.set(runId, list);
  if (scheduled) return;
  scheduled = true;
  requestAnimationFrame(applyArrived);
}

function applyArrived(): void {
  scheduled = false;
  const next = { ...runEvents.value };
  for (const [runId, events] of arrived) {
    const list = [...(next[runId] ?? [])];
    for (const [index, event] of events) list[index] = event;
    next[runId] = list;
    if (!runs.value.some((run) => run.id === runId)) void refreshRuns();
  }
  arrived.clear();
  runEvents.value = next;
}

/** A server joining adds tools by the dozen, a search several: one refresh for a burst. */
function scheduleToolsRefresh(): void {
  clearTimeout(toolsTimer);
  toolsTimer = window.setTimeout(() => {
    void refreshTools();
    void refreshAgent();
  }, 100);
}

/** Apply one message of the live feed. */
export function applyEvent(event: FeedEvent): void {
  switch (event.type) {
    case "approval":
      pending.value = [...pending.value, event.approval as PendingApproval];
      break;
    case "elicitation":
      pending.value = [...pending.value, event.elicitation as PendingElicitation];
      break;
    case "approval-settled":
    case "elicitation-settled":
      pending.value = pending.value.filter((item) => item.id !== event.id);
      break;
    case "run-event":
      queueRunEvent(event.runId as string, event.index as number, event.event as RunEvent);
      // A search loads tools into the conversation: their state on the Tools page changes.
      if ((event.event as RunEvent).type === "tool-search") scheduleToolsRefresh();
      break;
    case "run-state": {
      const run = event.run as RunSummary;
      const others = runs.value.filter((item) => item.id !== run.id);
      runs.value = [...others, run];
      if (run.state !== "running") void refreshAgent();
      break;
    }
    case "tools-changed":
      scheduleToolsRefresh();
      break;
    case "mode":
    case "session":
      void refreshAgent();
      void refreshTools();
      break;
    case "spans":
      spansVersion.value++;
      break;
    case "mcp-login":
      notice(`Log in to ${event.server as string}: ${event.url as string}`);
      window.open(event.url as string, "_blank", "noopener");
      break;
    default:
      break;
  }
}
