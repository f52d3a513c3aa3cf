// Code-mode sandboxes side by side, each in fresh processes on the Node its packages declare
// (the peers' Node 22 from bench/code-mode-peers where they ask for 22; ours on both): cold
// start-up (import + the first `return 1 + 1`, from before the import; BENCH_COLD_RUNS
// processes, interleaved, the median), warm (the median of 30 more), and per tool call from a
// program, one after another and all at once (Promise.all), each against the same tool called
// directly. A phase a sandbox cannot do is recorded with its error, not dropped. Full runs only:
// it installs the peers' folder (npm ci, ~350 MB with Node 22) the first time.
import { SANDBOX_PEERS } from "../code-mode/sandbox-peers/index.js";
import { ensurePeersInstalled } from "../code-mode/sandbox-peers/peer-packages.js";
import { median, runProbe } from "../code-mode/sandbox-peers/run-probe.js";

ensurePeersInstalled();
const runs = Number(process.env.BENCH_COLD_RUNS ?? 5);
const peers = Object.values(SANDBOX_PEERS);
const cold: Record<string, number[]> = {};
const warm: Record<string, number[]> = {};
const unable: Record<string, Record<string, string>> = {};
const node: Record<string, string> = {};
const fail = (name: string, phase: string, error: string) => {
  unable[name] = { ...unable[name], [phase]: error };
};

for (let run = 0; run < runs; run++) {
  // Rotated, so no sandbox always starts first (or last) on a warming machine.
  for (const peer of peers.map((_, i) => peers[(i + run) % peers.length]!)) {
    if (unable[peer.name]?.startup) continue;
    const probe = await runProbe(peer, ["startup", "30"]);
    if (!probe.ok) {
      fail(peer.name, "startup", probe.error);
      continue;
    }
    node[peer.name] = String(probe.figures.node);
    cold[peer.name] = [...(cold[peer.name] ?? []), Number(probe.figures.cold_ms)];
    warm[peer.name] = [...(warm[peer.name] ?? []), Number(probe.figures.warm_ms)];
  }
}

const results: Record<string, Record<string, unknown>> = {};
for (const peer of peers) {
  const figures: Record<string, unknown> = { node: node[peer.name] ?? `${peer.node}.x` };
  if (cold[peer.name]) {
    figures.cold_ms = median(cold[peer.name]!);
    figures.warm_ms = median(warm[peer.name]!);
  }
  for (const shape of ["seq", "parallel"] as const) {
    const probe = await runProbe(peer, ["calls", shape]);
    if (!probe.ok) {
      fail(peer.name, `calls ${shape}`, probe.error);
      continue;
    }
    figures.calls = probe.figures.calls;
    figures[`${shape}_call_us`] = probe.figures.call_us;
    figures.direct_call_us = probe.figures.direct_call_us;
  }
  if (unable[peer.name]) figures.unable = unable[peer.name];
  results[peer.name] = figures;
}
console.log(JSON.stringify(results));
