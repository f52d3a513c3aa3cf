import type { RowParams } from "./measure.js";

export interface Figure {
  key: string;
  label: string;
  unit: string;
  better: "higher" | "lower";
}

export interface RowSpec {
  id: string;
  title: string;
  /** Which measurement (measure.ts) runs it. */
  kind: "throughput" | "startup" | "idle_heap" | "import" | "many_tools";
  params: RowParams;
  /** Smaller sizes for `--quick` (CI's regression guard); rows without it are full-run only. */
  quick?: RowParams;
  figures: Figure[];
  /** Contenders this row is for (default: all). */
  only?: string[];
  /** Quick-run guard on our ratio to the raw SDK (lenient: machines are noisy). */
  guard?: { figure: string; min?: number; max?: number };
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
const HEAP: Figure = { key: "heap_mb", label: "JS heap", unit: "MB", better: "lower" };

/** Transport, calls in flight, calls (full, quick), and the quick guard's lowest ratio. */
const THROUGHPUT_ROWS: Array<["stdio" | "http", number, number, number, number]> = [
  ["stdio", 1, 3000, 600, 0.6],
  ["stdio", 32, 20000, 1500, 0.5],
  ["http", 1, 1500, 300, 0.6],
  ["http", 32, 3000, 600, 0.5],
];

export const ROWS: RowSpec[] = [
  ...THROUGHPUT_ROWS.map(
    ([transport, inFlight, calls, quickCalls, min]): RowSpec => ({
      id: `${transport}_${inFlight === 1 ? "sequential" : `${inFlight}_in_flight`}`,
      title: `${transport === "stdio" ? "stdio" : "Streamable HTTP"} echo, ${inFlight === 1 ? "sequential" : `${inFlight} in flight`}`,
      kind: "throughput",
      params: { transport, calls, inFlight },
      quick: { transport, calls: quickCalls, inFlight },
      figures: [THROUGHPUT, CPU],
      guard: { figure: "calls_per_s", min },
    }),
  ),
  ...[1, 10, 30].map(
    (servers): RowSpec => ({
      id: `startup_${servers}`,
      title: "start-up, {servers} stdio servers (300 ms initialize, 20 tools each)",
      kind: "startup",
      params: { servers, initDelayMs: 300, tools: 20 },
      // The quick run's guard: 5 servers say as much about connecting at once, in half the time.
      ...(servers === 10 ? { quick: { servers: 5, initDelayMs: 300, tools: 20 } } : {}),
      figures: [STARTUP, COLD_STARTUP, CLIENT_CPU, FIRST_CALL],
      ...(servers === 10 ? { guard: { figure: "startup_ms", max: 1.6 } } : {}),
    }),
  ),
  {
    id: "idle_heap_30",
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
    title: "import time",
    kind: "import",
    params: {},
    quick: {},
    figures: [{ key: "import_ms", label: "import", unit: "ms", better: "lower" }],
    guard: { figure: "import_ms", max: 4 },
  },
  {
    id: "many_tools_10000",
    title: "one stdio server with {tools} tools: connect + list until callable",
    kind: "many_tools",
    params: { tools: 10_000 },
    quick: { tools: 2_000 },
    figures: [
      { key: "connect_list_ms", label: "until callable", unit: "ms", better: "lower" },
      HEAP,
    ],
    guard: { figure: "connect_list_ms", max: 30 },
  },
];
