// quickjs-emscripten-core 0.32.0 reads the out-pointer of `executePendingJobs` through a typed
// array made before the jobs run. When the WebAssembly memory grows while they run (an ordinary
// program that allocates a few megabytes after an `await`), that view is detached, the context
// pointer reads as garbage, a stray context is created, and `runtime.dispose()` later aborts the
// whole module (`list_empty(&rt->gc_obj_list)`). Upstream:
// https://github.com/justjake/quickjs-emscripten/issues/240 (and /issues/269); the fix is
// https://github.com/justjake/quickjs-emscripten/pull/248, unreleased in 0.32.0.
//
// Remove this file when a release includes that fix: the patch stops applying by itself once the
// library's method no longer reads `typedArray[0]`, and test/pending-jobs-patch.test.ts then
// reports that the unpatched method survives memory growth.
import type {
  ExecutePendingJobsResult,
  QuickJSContext,
  QuickJSHandle,
  QuickJSRuntime,
} from "quickjs-emscripten-core";

/** The library internals the replacement touches (all private in its typings). */
interface RuntimeInternals {
  memory: { newMutablePointerArray(length: number): { value: { ptr: number }; dispose(): void } };
  ffi: {
    QTS_ExecutePendingJob(rt: number, maxJobs: number, ctxOut: number): number;
    QTS_FreeValuePointerRuntime(rt: number, value: number): void;
  };
  rt: { value: number };
  module: { HEAPU8: Uint8Array };
  contextMap: Map<number, QuickJSContext>;
  newContext(options: { contextPointer: number }): QuickJSContext;
}

interface ContextInternals {
  getMemory(rt: number): { heapValueHandle(pointer: number): QuickJSHandle };
}

/** What the library exports that the replacement needs. */
export type PatchTarget = Pick<
  typeof import("quickjs-emscripten-core"),
  "QuickJSRuntime" | "DisposableResult"
>;

const ORIGINAL = Symbol.for("@pseudoclaude/plugin-code-mode:executePendingJobs");

/** The library's own method, as it was before the patch (for the test that guards the patch). */
export function originalExecutePendingJobs(
  target: PatchTarget,
): QuickJSRuntime["executePendingJobs"] {
  const prototype = target.QuickJSRuntime.prototype as unknown as Record<symbol, unknown>;
  return (prototype[ORIGINAL] ??
    target.QuickJSRuntime.prototype.executePendingJobs) as QuickJSRuntime["executePendingJobs"];
}

/** Replace `executePendingJobs` once, and only while the library still has the bug. */
export function patchExecutePendingJobs(target: PatchTarget): void {
  const prototype = target.QuickJSRuntime.prototype;
  const marked = prototype as unknown as Record<symbol, unknown>;
  if (marked[ORIGINAL]) return;
  const original = prototype.executePendingJobs;
  if (!original.toString().includes("typedArray[0]")) return;
  const { DisposableResult } = target;
  marked[ORIGINAL] = original;
  prototype.executePendingJobs = function executePendingJobs(
    this: QuickJSRuntime,
    maxJobsToExecute?: number,
  ) {
    const self = this as unknown as RuntimeInternals;
    const out = self.memory.newMutablePointerArray(1);
    const valuePtr = self.ffi.QTS_ExecutePendingJob(
      self.rt.value,
      maxJobsToExecute ?? -1,
      out.value.ptr,
    );
    // A fresh view: the memory may have grown (and the old buffer detached) while jobs ran.
    const ctxPtr = new Int32Array(self.module.HEAPU8.buffer, out.value.ptr, 1)[0] ?? 0;
    out.dispose();
    if (ctxPtr === 0) {
      self.ffi.QTS_FreeValuePointerRuntime(self.rt.value, valuePtr);
      return DisposableResult.success(0) as ExecutePendingJobsResult;
    }
    const context = self.contextMap.get(ctxPtr) ?? self.newContext({ contextPointer: ctxPtr });
    const internals = context as unknown as ContextInternals;
    const resultValue = internals.getMemory(self.rt.value).heapValueHandle(valuePtr);
    if (context.typeof(resultValue) === "number") {
      const executed = context.getNumber(resultValue);
      resultValue.dispose();
      return DisposableResult.success(executed) as ExecutePendingJobsResult;
    }
    const error = Object.assign(resultValue, { context });
    return DisposableResult.fail(error, (failed) =>
      context.unwrapResult(failed as Parameters<QuickJSContext["unwrapResult"]>[0]),
    ) as ExecutePendingJobsResult;
  };
}
