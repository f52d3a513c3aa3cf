// What one inner call of a code-mode program costs over calling the tool directly: an agent
// with a trivial in-memory tool (`echo`, read-only, so the default policy allows it) and
// codeMode(); a program making N calls of it one after another through
// `agent.callTool("code_mode")`, against N `agent.callTool("echo")` on the same agent,
// interleaved (BENCH_CALL_REPS times, after five warm programs), the program's own start-up (a
// trivial program's time) taken out. Also the same N made at once (Promise.all: 8 run at a
// time), and the sandbox's bridge alone (`runProgram` with a host answering at once). Goal:
// under 1 ms (1,000 µs) of overhead per inner call.
import { pseudoclaudeAgent, pseudoclaudeSandbox } from "../code-mode/sandbox-peers/ours.js";
import { runProbe } from "../code-mode/sandbox-peers/run-probe.js";
import type { SandboxPeer } from "../code-mode/sandbox-peers/sandbox-peer.js";

const calls = Number(process.env.BENCH_INNER_CALLS ?? 200);
const reps = String(process.env.BENCH_CALL_REPS ?? 7);

async function figures(peer: SandboxPeer, shape: "seq" | "parallel") {
  const probe = await runProbe(peer, ["calls", shape, String(calls), reps]);
  if (!probe.ok) throw new Error(`${peer.name} ${shape}: ${probe.error}`);
  return probe.figures;
}

const sequential = await figures(pseudoclaudeAgent, "seq");
const parallel = await figures(pseudoclaudeAgent, "parallel");
const bridge = await figures(pseudoclaudeSandbox, "seq");
const overhead = Number(sequential.overhead_us);
console.log(
  JSON.stringify({
    calls,
    inner_call_us: sequential.call_us,
    direct_call_us: sequential.direct_call_us,
    overhead_us: overhead,
    parallel_inner_call_us: parallel.call_us,
    parallel_overhead_us: parallel.overhead_us,
    sandbox_bridge_call_us: bridge.call_us,
    trivial_program_ms: sequential.trivial_program_ms,
    goal_overhead_us: 1000,
    met: overhead < 1000,
  }),
);
