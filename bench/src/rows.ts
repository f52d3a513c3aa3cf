import { CHAINED_TASK } from "./code-mode/chained-task.js";
import type { Era } from "./echo-servers.js";
import type { RowParams } from "./measure.js";
import { TASK_CONTENDERS } from "./tokens/contenders/index.js";
import { CHAINED_TASK_ROW, TOOL_SEARCH_TASK, type TokenTask } from "./tokens/token-tasks.js";

export interface Figure {
  key: string;
  label: string;
  unit: string;
  better: "higher" | "lower";
}

export interface RowSpec {
  id: string;
  title: string;
  /** The echo server's era: 2026-07-28 rows are the 2025 shapes on a 2026-only server. */
  era: Era;
  /**
   * The contender every figure is divided by: the official SDK's client of the row's era, used
   * directly (`raw-sdk`, 1.x, for 2025-11-25; `raw-v2`, @modelcontextprotocol/client, for
   * 2026-07-28). Each row runs its own baseline, not the other era's.
   */
  baseline: string;
  /**
   * Which measurement runs it: measure.ts, or for `tokens` the row's `task` (a task run by the
   * row's own contenders, `only`, against a local model; see `tokenRow`).
   */
  kind: "throughput" | "startup" | "idle_heap" | "import" | "many_tools" | "tokens";
  /** A `tokens` row's task: its measuring script, its contenders' packages, which are ours. */
  task?: TokenTask;
  params: RowParams;
  /** Smaller sizes for `--quick` (CI's regression guard); rows without it are full-run only. */
  quick?: RowParams;
  figures: Figure[];
  /** Contenders this row is for (default: all). */
  only?: string[];
  /**
   * Quick-run guard on our ratio to the row's baseline (lenient: machines are noisy), for each
   * of `contenders` (default: `pseudoclaude`).
   */
  guard?: { figure: string; min?: number; max?: number; contenders?: string[] };
  /** More figures of the row guarded the same way (ours only). */
  guards?: Array<{ figure: string; min?: number; max?: number }>;
  /** Repetitions of this row whatever `--reps` says (a deterministic figure needs one). */
  reps?: number;
  /** The contenders a quick run gives the row (default: `only`). */
  quickContenders?: string[];
  /**
   * A goal the row reports against, met or not (a guard fails a quick run; a goal is said in
   * the results and the table): `contender`'s ratio to the baseline on `figure` at most
   * `maxRatio`, and its figure below every other contender's that ran.
   */
  goal?: { contender: string; figure: string; maxRatio: number };
}

const THROUGHPUT: Figure = { key: "calls_per_s", label: "calls/s", unit: "/s", better: "higher" };
const CPU: Figure = {
  key: "cpu_us_per_call",
  label: "client CPU per call",
  unit: "µs",
  better: "lower",
};
const STARTUP: Figure = { key: "startup_ms", label: "start-up", unit: "ms", better: "lower" };
/** Import and start-up together, from a fresh process: what a user's `node app.js` waits for. */
const COLD_STARTUP: Figure = {
  key: "cold_startup_ms",
  label: "import + start-up",
  unit: "ms",
  better: "lower",
};
/** The client's own CPU while its servers boot (what it loads and does, on the same cores). */
const CLIENT_CPU: Figure = {
  key: "client_cpu_ms",
  label: "client CPU during start-up",
  unit: "ms",
  better: "lower",
};
/** The first tool call after connecting, until its answer is back. */
const FIRST_CALL: Figure = {
  key: "first_call_ms",
  label: "first call",
  unit: "ms",
  better: "lower",
};
/** Each call's round trip, the median (rows with `latency`). */
const LATENCY: Figure = {
  key: "latency_us_median",
  label: "median call round trip",
  unit: "µs",
  better: "lower",
};
const HEAP: Figure = { key: "heap_mb", label: "JS heap", unit: "MB", better: "lower" };

/**
 * Calls before the clock in the full stdio rows. Measured in 1,000-call blocks on the echo
 * server, every contender's client CPU a call falls until the fifth block (ours and the raw SDK
 * ~200-300 µs in each of the first two, ~120, ~75, then 40-50; the v2 client and 32 in flight
 * fall the same way), so a row that starts its clock sooner times the JIT's warm-up as much as
 * the call path.
 */
const STDIO_WARM_UP = 5000;

/** Transport, calls in flight, calls (full, quick), and the quick guard's lowest ratio. */
type ThroughputShape = ["stdio" | "http", number, number, number, number];

const THROUGHPUT_ROWS: ThroughputShape[] = [
  ["stdio", 1, 10000, 600, 0.6],
  ["stdio", 32, 20000, 1500, 0.5],
  ["http", 1, 1500, 300, 0.6],
  ["http", 32, 3000, 600, 0.5],
];

/** The 2025 rows' baseline (the 1.x SDK) and the 2026 rows' (the v2 client). */
export const BASELINES: Readonly<Record<Era, string>> = {
  "2025-11-25": "raw-sdk",
  "2026-07-28": "raw-v2",
};

function throughputRow(
  era: Era,
  [transport, inFlight, calls, quickCalls, min]: ThroughputShape,
  quick: boolean,
): RowSpec {
  const shape = `${transport}_${inFlight === 1 ? "sequential" : `${inFlight}_in_flight`}`;
  const title = `${transport === "stdio" ? "stdio" : "Streamable HTTP"} echo, ${inFlight === 1 ? "sequential" : `${inFlight} in flight`}`;
  const modern = era === "2026-07-28";
  return {
    id: modern ? `v2026_${shape}` : shape,
    title: modern ? `2026-07-28 ${title}` : title,
    era,
    baseline: BASELINES[era],
    kind: "throughput",
    params: {
      ...(modern ? { era } : {}),
      transport,
      calls,
      inFlight,
      ...(transport === "stdio" ? { warmUp: STDIO_WARM_UP } : {}),
    },
    ...(quick
      ? { quick: { ...(modern ? { era } : {}), transport, calls: quickCalls, inFlight } }
      : {}),
    figures: [THROUGHPUT, CPU],
    ...(quick ? { guard: { figure: "calls_per_s", min } } : {}),
  };
}

/**
 * Sequential stdio calls with one no-op hook each side and a recording tracer
 * (`pseudoclaude-traced`), beside ours bare and the raw SDK's call in the same span
 * (`raw-sdk-traced`): what hooks and tracing cost when used, and the floor that recording a
 * span per call puts under any client. Each in a process of its own, as every row.
 */
function tracedRow(): RowSpec {
  const params: RowParams = { transport: "stdio", calls: 10000, inFlight: 1 };
  const full: RowParams = { ...params, warmUp: STDIO_WARM_UP };
  return {
    id: "traced_stdio_sequential",
    era: V2025,
    baseline: BASELINES[V2025],
    title: "stdio echo, sequential, with a no-op hook each side and a recording tracer",
    kind: "throughput",
    params: full,
    quick: { ...params, calls: 600 },
    figures: [THROUGHPUT, CPU],
    only: [BASELINES[V2025], "pseudoclaude", "pseudoclaude-traced", "raw-sdk-traced"],
    // Lenient: catches tracing becoming several times dearer, not noise.
    guard: { figure: "calls_per_s", min: 0.35, contenders: ["pseudoclaude-traced"] },
  };
}

/**
 * One server with 10,000 tools, their schemas one for all (as generated tools have) or each its
 * own (as hand-written tools have): a client that shares identical schemas holds less in the
 * first, and the second shows what it holds when there is nothing to share.
 */
function manyToolsRow(distinctSchemas: boolean): RowSpec {
  const params: RowParams = { tools: 10_000, ...(distinctSchemas ? { distinctSchemas } : {}) };
  return {
    id: distinctSchemas ? "many_tools_distinct_10000" : "many_tools_10000",
    era: V2025,
    baseline: BASELINES[V2025],
    title: distinctSchemas
      ? "one stdio server with {tools} tools, each with a schema of its own: connect + list until callable"
      : "one stdio server with {tools} tools: connect + list until callable",
    kind: "many_tools",
    params,
    quick: { ...params, tools: 2_000 },
    figures: [
      { key: "connect_list_ms", label: "until callable", unit: "ms", better: "lower" },
      HEAP,
    ],
    guard: { figure: "connect_list_ms", max: 30 },
    // Lenient: catches losing the shared schemas (1.5x the raw SDK's heap without them,
    // measured) or a per-tool record coming back, not noise.
    guards: [{ figure: "heap_mb", max: distinctSchemas ? 2.2 : 1.3 }],
  };
}

function startupRow(era: Era, servers: number, quick: boolean): RowSpec {
  const modern = era === "2026-07-28";
  const params: RowParams = { ...(modern ? { era } : {}), servers, initDelayMs: 300, tools: 20 };
  return {
    id: modern ? `v2026_startup_${servers}` : `startup_${servers}`,
    title: modern
      ? "2026-07-28 start-up, {servers} stdio servers (300 ms to answer discovery, 20 tools each)"
      : "start-up, {servers} stdio servers (300 ms initialize, 20 tools each)",
    era,
    baseline: BASELINES[era],
    kind: "startup",
    params,
    // The quick run's guard: 5 servers say as much about connecting at once, in half the time.
    ...(quick ? { quick: { ...params, servers: 5 } } : {}),
    figures: [STARTUP, COLD_STARTUP, CLIENT_CPU, FIRST_CALL],
    ...(quick
      ? {
          guard: { figure: "startup_ms", max: 1.6 },
          // Lenient, against losing what keeps these down: the schema compiler's warm-up
          // while servers boot (first call 1.7-2.4x the raw SDK's with it, 4.4-5.9x without,
          // measured) and loading the SDK on first connect only (client CPU 4-4.2x).
          guards: [
            { figure: "first_call_ms", max: 3.5 },
            { figure: "client_cpu_ms", max: 7 },
          ],
        }
      : {}),
  };
}

/**
 * Calls through `pseudoclaude serve --mcp` (stdio) to the row's echo server, against the same
 * client calling that server directly: the gateway's hop, with its audit file off and on (on is
 * the default). Sequential, so every call's round trip crosses the gateway alone.
 */
// The quick guard is lenient: a 600-call quick run measured 0.27-0.38x of direct (the full
// run 0.43-0.61x); it is there to catch a gateway that became several times slower.
function gatewayRow(era: Era, min: number): RowSpec {
  const modern = era === "2026-07-28";
  const base: RowParams = { ...(modern ? { era } : {}), transport: "stdio", inFlight: 1 };
  return {
    id: modern ? "v2026_gateway_stdio_sequential" : "gateway_stdio_sequential",
    title: `${modern ? "2026-07-28 " : ""}stdio echo through the gateway (serve --mcp), sequential`,
    era,
    baseline: BASELINES[era],
    kind: "throughput",
    params: { ...base, calls: 10000, warmUp: STDIO_WARM_UP, latency: true },
    quick: { ...base, calls: 600, latency: true },
    figures: [THROUGHPUT, LATENCY, CPU],
    // The bare proxy: the same hop with nothing in it, the floor a gateway is judged against.
    only: [BASELINES[era], "gateway", "gateway-audit", "bare-proxy"],
    guard: { figure: "calls_per_s", min, contenders: ["gateway", "gateway-audit"] },
  };
}

/** What a token row reports of a task, whoever runs it. */
const TASK_TOKEN_FIGURES: RowSpec["figures"] = [
  { key: "input_tokens", label: "input tokens, whole task", unit: "", better: "lower" },
  { key: "requests", label: "model requests", unit: "", better: "lower" },
  { key: "max_request_tokens", label: "largest request", unit: "", better: "lower" },
  {
    key: "first_request_tools",
    label: "tools on the first request",
    unit: "",
    better: "lower",
  },
  { key: "completed", label: "task completed", unit: "", better: "higher" },
];

/**
 * A task that needs 3 tools out of every tool of ~20 recorded public MCP servers (replayed, one
 * process each), run by each framework its own documented way against one local model that
 * plays the same scripted agent for all (tokens/): the input tokens of the whole task, counted
 * with the o200k tokenizer as the model reads each request. Ours with every tool loaded is the
 * baseline; ours with tool search and each peer's tool search are divided by it. Tokens do not
 * vary from run to run: one repetition. The quick run has ours only, with a lenient guard that
 * catches search no longer deferring (ratio ~1); the goal (15% of everything loaded, fewer than
 * every peer) is reported, not guarded.
 */
function tokenRow(): RowSpec {
  return {
    id: "tool_search_tokens",
    era: V2025,
    baseline: "pseudoclaude-all",
    title: "a task needing 3 of {tools} tools from {servers} MCP servers: input tokens",
    kind: "tokens",
    task: TOOL_SEARCH_TASK,
    params: {},
    quick: {},
    figures: [
      ...TASK_TOKEN_FIGURES,
      {
        key: "input_tokens_deferred_free",
        label: "input tokens, deferred tools counted as nothing",
        unit: "",
        better: "lower",
      },
    ],
    only: Object.keys(TASK_CONTENDERS),
    quickContenders: ["pseudoclaude-all", "pseudoclaude-search"],
    reps: 1,
    guard: { figure: "input_tokens", max: 0.3, contenders: ["pseudoclaude-search"] },
    goal: { contender: "pseudoclaude-search", figure: "input_tokens", maxRatio: 0.15 },
  };
}

/**
 * The chained task of code mode (code-mode/): list a folder of 50 notes, read each, count
 * those with a marker, write a summary, answer; ours calling the tools one by one (the
 * baseline; the scripted model batches 10 reads an answer) and ours with code mode (one
 * program). The input tokens of the whole task, counted as the tool-search row counts them.
 * Deterministic: one repetition, in the quick run too (two runs of about a second); the quick
 * guard (half the baseline) catches code mode no longer saving, the goal (a third) is reported.
 */
function codeModeTokenRow(): RowSpec {
  return {
    id: "code_mode_tokens",
    era: V2025,
    baseline: "pseudoclaude-classic",
    title: `a chained task over ${CHAINED_TASK.files} files (list, read each, count a marker, write a summary): input tokens`,
    kind: "tokens",
    task: CHAINED_TASK_ROW,
    params: {},
    quick: {},
    figures: TASK_TOKEN_FIGURES,
    only: Object.keys(CHAINED_TASK_ROW.packages),
    reps: 1,
    guard: { figure: "input_tokens", max: 0.5, contenders: ["pseudoclaude-code-mode"] },
    goal: { contender: "pseudoclaude-code-mode", figure: "input_tokens", maxRatio: 0.333 },
  };
}

const V2025 = "2025-11-25";
const V2026 = "2026-07-28";

export const ROWS: RowSpec[] = [
  ...THROUGHPUT_ROWS.map((shape) => throughputRow(V2025, shape, true)),
  ...[1, 10, 30].map((servers) => startupRow(V2025, servers, servers === 10)),
  {
    id: "idle_heap_30",
    era: V2025,
    baseline: BASELINES[V2025],
    title: "JS heap held by 30 idle servers",
    kind: "idle_heap",
    params: { servers: 30, tools: 20 },
    figures: [
      HEAP,
      {
        key: "heap_again_mb",
        label: "JS heap of 30 more, connected after the first closed",
        unit: "MB",
        better: "lower",
      },
    ],
  },
  {
    id: "import",
    era: V2025,
    baseline: BASELINES[V2025],
    title: "import time",
    kind: "import",
    params: {},
    quick: {},
    figures: [{ key: "import_ms", label: "import", unit: "ms", better: "lower" }],
    guard: { figure: "import_ms", max: 4 },
  },
  manyToolsRow(false),
  manyToolsRow(true),
  // The same shapes on a 2026-only server, last, so the 2025 rows run as they always did; in
  // the quick run only what is cheap: sequential stdio calls and start-up with 5 servers.
  ...THROUGHPUT_ROWS.map((shape, i) => throughputRow(V2026, shape, i === 0)),
  ...[1, 10, 30].map((servers) => startupRow(V2026, servers, servers === 10)),
  tracedRow(),
  gatewayRow(V2025, 0.12),
  gatewayRow(V2026, 0.12),
  tokenRow(),
  codeModeTokenRow(),
];
