import type { QuickJSWASMModule } from "quickjs-emscripten-core";
import { BRIDGE_PRELUDE } from "./guest-bridge.js";
import { DETERMINISM_PRELUDE } from "./guest-determinism.js";

/** What a small program does: parse JSON, await, build a string. */
const WARM_UP_PROGRAM = `(async () => {
  const data = JSON.parse('{"items":[1,2,3]}');
  const total = (await Promise.all(data.items.map(async (n) => n * 2))).reduce((a, b) => a + b, 0);
  return JSON.stringify({ total, text: \`\${total}\`.padStart(4, "0") });
})()`;

/**
 * Take a freshly loaded module once through what every program uses (the parser and compiler
 * on the preludes, promises, JSON) on a runtime thrown away after. V8 compiles QuickJS's
 * WebAssembly function by function on first use, and tiers the hot ones up: 20 to 40 ms that
 * would otherwise fall on the first program. A worker does this while it has nothing to run.
 */
export function warmUpModule(module: QuickJSWASMModule): void {
  const runtime = module.newRuntime();
  try {
    const context = runtime.newContext();
    try {
      for (const [code, file] of [
        [DETERMINISM_PRELUDE, "determinism.js"],
        [BRIDGE_PRELUDE, "bridge.js"],
        [WARM_UP_PROGRAM, "warm-up.js"],
      ] as const) {
        const result = context.evalCode(code, file, { type: "global" });
        (result.error ?? result.value).dispose();
      }
      const jobs = runtime.executePendingJobs();
      if (jobs.error) jobs.error.dispose();
    } finally {
      context.dispose();
    }
  } finally {
    runtime.dispose();
  }
}
