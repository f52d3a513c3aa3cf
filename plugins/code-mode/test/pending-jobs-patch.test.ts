// Guards the replacement of quickjs-emscripten-core's executePendingJobs (see
// src/sandbox/pending-jobs-patch.ts): with it, a program that allocates after an `await` (so the
// WebAssembly memory grows while jobs run) still disposes cleanly. The second test documents
// when the patch can go: the day the library's own method survives the same program.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { QuickJSRuntime } from "quickjs-emscripten-core";
import * as core from "quickjs-emscripten-core";
import { originalExecutePendingJobs } from "../src/sandbox/pending-jobs-patch.js";
import { createSandboxModule } from "../src/sandbox/sandbox-module.js";

/** Allocate megabytes inside a job on a module whose memory has not grown yet, then dispose. */
async function allocateAfterAwaitThenDispose(
  pump: (runtime: QuickJSRuntime) => ReturnType<QuickJSRuntime["executePendingJobs"]>,
): Promise<"disposed" | "aborted"> {
  const module = await createSandboxModule();
  const runtime = module.newRuntime();
  runtime.setMemoryLimit(32 * 1024 * 1024);
  const context = runtime.newContext();
  const started = context.evalCode(
    "(async () => { await null; globalThis.kept = JSON.stringify('x'.repeat(5e6)); })()",
  );
  (started.error ?? started.value).dispose();
  while (runtime.hasPendingJob()) {
    const result = pump(runtime);
    if (result.error) result.error.dispose();
  }
  context.dispose();
  try {
    runtime.dispose();
    return "disposed";
  } catch {
    return "aborted";
  }
}

describe("the executePendingJobs patch", () => {
  it("lets a runtime whose memory grew while jobs ran be disposed", async () => {
    assert.equal(
      await allocateAfterAwaitThenDispose((runtime) => runtime.executePendingJobs()),
      "disposed",
    );
  });

  it("is still needed: the library's own method aborts the module on the same program (remove the patch when this fails)", async () => {
    const original = originalExecutePendingJobs(core);
    assert.notEqual(
      original,
      core.QuickJSRuntime.prototype.executePendingJobs,
      "the patch is applied",
    );
    // The aborting module prints "Aborted(Assertion failed: …)" to stderr: that is this test.
    assert.equal(
      await allocateAfterAwaitThenDispose((runtime) => original.call(runtime)),
      "aborted",
    );
  });
});
