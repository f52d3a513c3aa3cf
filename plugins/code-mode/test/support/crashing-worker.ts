// A sandbox worker that tests can make die: the real worker, plus a listener that ends the
// thread (EXIT_WORKER in a program's source) or fills its JavaScript heap in small steps until
// Node stops it for running out of memory (FILL_WORKER_HEAP). The real worker loads first (its
// module included), so this listener sees the programs that start once the worker is ready.
import "../../src/sandbox/sandbox-worker.js";
import { parentPort } from "node:worker_threads";

parentPort?.on("message", (message: { type: string; source?: string }) => {
  if (message.type !== "start") return;
  if (message.source?.includes("EXIT_WORKER")) setTimeout(() => process.exit(3), 20);
  if (message.source?.includes("FILL_WORKER_HEAP")) {
    const kept: string[] = [];
    const grow = () => {
      for (let i = 0; i < 8; i++) kept.push(`${"x".repeat(1 << 20)}${kept.length}`);
      setImmediate(grow);
    };
    grow();
  }
});
