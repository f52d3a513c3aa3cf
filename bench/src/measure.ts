// One measurement in a fresh process: `node --expose-gc dist/measure.js CONTENDER ROW PARAMS`.
// Prints one JSON line of figures. A fresh process per figure, so no contender pays for
// another's warm caches, modules or leftovers.
import type { Connected, Contender, ServerSpec } from "./contender.js";
import { CONTENDERS } from "./contenders/index.js";
import { type Era, httpEcho, runningEchoServers, stdioEcho } from "./echo-servers.js";

export interface RowParams {
  /** The echo server's protocol era (default 2025-11-25). */
  era?: Era;
  transport?: "stdio" | "http";
  calls?: number;
  inFlight?: number;
  servers?: number;
  initDelayMs?: number;
  tools?: number;
  /** Many-tools rows: each filler tool with a schema of its own (default: one for all). */
  distinctSchemas?: boolean;
  /** Throughput rows: also each call's round trip, its median (`latency_us_median`). */
  latency?: boolean;
  /** Throughput rows: calls before the clock (default a fifth of `calls`, 100 to 1,000). */
  warmUp?: number;
}

const MB = 1024 * 1024;

function gc(): void {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) throw new Error("run with --expose-gc");
  collect();
  collect();
}

async function settledHeap(): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 100));
  gc();
  return process.memoryUsage().heapUsed;
}

/**
 * Until this process's echo servers have exited (or 10 s passed): a contender whose close
 * returns before its servers exit still holds their clients until they do, so a heap figure
 * taken sooner counts what it is about to free.
 */
async function serversGone(): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (runningEchoServers(process.pid).length > 0 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 50));
}

async function expectEcho(connected: Connected, server: string, text: string): Promise<void> {
  const got = await connected.call(server, "echo", { text });
  if (!got.includes(text)) throw new Error(`echo on ${server} answered ${JSON.stringify(got)}`);
}

/**
 * One small server connected, called and closed before a heap or scale row: what such a row
 * measures is what servers and tools hold and cost, not the code a contender loads on its
 * first connect (ours loads the MCP SDK then, not on import); first-connect costs are the
 * import and start-up rows' to show.
 */
async function warmUp(contender: Contender): Promise<void> {
  const warm = await contender.connect([stdioEcho("warm", { fillerTools: 1 })]);
  try {
    await expectEcho(warm, "warm", "up");
  } finally {
    await warm.close();
  }
}

async function withServer<T>(
  transport: "stdio" | "http",
  options: Parameters<typeof stdioEcho>[1],
  body: (spec: ServerSpec) => Promise<T>,
): Promise<T> {
  if (transport === "stdio") return body(stdioEcho("b", options));
  const server = await httpEcho("b", options);
  try {
    return await body(server.spec);
  } finally {
    await server.stop();
  }
}

const ROWS: Record<
  string,
  (contender: Contender, params: RowParams) => Promise<Record<string, number>>
> = {
  async import(contender) {
    const start = performance.now();
    await contender.load();
    return { import_ms: performance.now() - start };
  },

  async throughput(contender, params) {
    const calls = params.calls ?? 1000;
    const inFlight = params.inFlight ?? 1;
    return withServer(params.transport ?? "stdio", { era: params.era }, async (spec) => {
      const connected = await contender.connect([spec]);
      try {
        // Steady state, as a long-running agent sees it: the calls before the clock let the JIT
        // compile every contender's call path (at 6,000 calls with 100 before, half of each
        // contender's CPU a call was that warm-up: 105 against 60 µs for the raw SDK, measured).
        const warm = params.warmUp ?? Math.min(1000, Math.max(100, Math.floor(calls / 5)));
        for (let i = 0; i < warm; i++) await expectEcho(connected, "b", `warm${i}`);
        let next = 0;
        // Filled only when the row asks: the other rows time the batch and nothing else.
        const latencies = params.latency ? new Float64Array(calls) : undefined;
        const worker = async () => {
          while (next < calls) {
            const i = next++;
            if (!latencies) {
              await expectEcho(connected, "b", `m${i}`);
              continue;
            }
            const sent = performance.now();
            await expectEcho(connected, "b", `m${i}`);
            latencies[i] = performance.now() - sent;
          }
        };
        const cpu = process.cpuUsage();
        const start = performance.now();
        await Promise.all(Array.from({ length: inFlight }, worker));
        const elapsed = performance.now() - start;
        const used = process.cpuUsage(cpu);
        return {
          calls_per_s: (calls / elapsed) * 1000,
          cpu_us_per_call: (used.user + used.system) / calls,
          // The kernel's share (pipe and socket writes, wake-ups) apart from our own code's.
          cpu_system_us_per_call: used.system / calls,
          ...(latencies
            ? { latency_us_median: latencies.sort()[Math.floor(calls / 2)]! * 1000 }
            : {}),
        };
      } finally {
        await connected.close();
      }
    });
  },

  async startup(contender, params) {
    const loading = performance.now();
    await contender.load();
    const count = params.servers ?? 1;
    const tools = params.tools ?? 20;
    const specs = Array.from({ length: count }, (_, i) =>
      stdioEcho(`s${i}`, {
        era: params.era,
        initDelayMs: params.initDelayMs ?? 300,
        fillerTools: tools,
      }),
    );
    const start = performance.now();
    const cpu = process.cpuUsage();
    const connected = await contender.connect(specs);
    const elapsed = performance.now() - start;
    // What this process spent while its servers booted on the same cores.
    const used = process.cpuUsage(cpu);
    try {
      if (connected.toolCount() < count * (tools + 2))
        throw new Error(`${connected.toolCount()} tools, expected ${count * (tools + 2)}`);
      // The first call after connecting: what a run's first tool call waits for beyond the
      // round trip (a contender that validates arguments compiles its first validator here).
      const calling = performance.now();
      await expectEcho(connected, `s${count - 1}`, "up");
      return {
        startup_ms: elapsed,
        cold_startup_ms: start + elapsed - loading,
        client_cpu_ms: (used.user + used.system) / 1000,
        first_call_ms: performance.now() - calling,
      };
    } finally {
      await connected.close();
    }
  },

  async idle_heap(contender, params) {
    await contender.load();
    const count = params.servers ?? 30;
    await warmUp(contender);
    const servers = (first: number) =>
      Array.from({ length: count }, (_, i) =>
        stdioEcho(`s${first + i}`, { fillerTools: params.tools ?? 20 }),
      );
    const held = async (first: number): Promise<number> => {
      await serversGone();
      const before = await settledHeap();
      const connected = await contender.connect(servers(first));
      try {
        await expectEcho(connected, `s${first}`, "up");
        return ((await settledHeap()) - before) / MB;
      } finally {
        await connected.close();
      }
    };
    // The first figure includes what connecting that many servers compiles (the JIT's code and
    // feedback for every function that ran hot) once per process; the second, the same number
    // of servers connected after the first were closed, is what servers themselves hold.
    const heap = await held(0);
    return { heap_mb: heap, heap_again_mb: await held(count) };
  },

  async many_tools(contender, params) {
    await contender.load();
    await warmUp(contender);
    const tools = params.tools ?? 10_000;
    const before = await settledHeap();
    const start = performance.now();
    const connected = await contender.connect([
      stdioEcho("b", { fillerTools: tools, distinctSchemas: params.distinctSchemas }),
    ]);
    try {
      await expectEcho(connected, "b", "callable");
      const elapsed = performance.now() - start;
      if (connected.toolCount() < tools + 2)
        throw new Error(`${connected.toolCount()} tools, expected ${tools + 2}`);
      const after = await settledHeap();
      return { connect_list_ms: elapsed, heap_mb: (after - before) / MB };
    } finally {
      await connected.close();
    }
  },
};

const [name = "", row = "", raw = "{}"] = process.argv.slice(2);
const contender = CONTENDERS[name];
const measure = ROWS[row];
if (!contender || !measure) {
  process.stderr.write(
    `usage: measure.js CONTENDER ROW [PARAMS_JSON]; contenders ${Object.keys(CONTENDERS).join(", ")}; rows ${Object.keys(ROWS).join(", ")}\n`,
  );
  process.exit(2);
}
let figures: Record<string, number>;
try {
  figures = await measure(contender, JSON.parse(raw) as RowParams);
} catch (error) {
  // The stack for a person, then one line the runner reads back: what a contender that cannot
  // do the row answered.
  process.stderr.write(`${(error as Error)?.stack ?? error}\n`);
  process.stderr.write(
    `bench-error: ${String((error as Error)?.message ?? error).split("\n")[0]}\n`,
  );
  process.exit(1);
}
process.stdout.write(`${JSON.stringify(figures)}\n`);
// Some frameworks keep timers or handles after close; the figure is taken, the process ends.
process.exit(0);
