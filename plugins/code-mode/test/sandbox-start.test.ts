// How the sandbox starts: its own entry point loads neither the kernel nor the plugin, and its
// WebAssembly is compiled once by the host and handed to each worker, which falls back to
// loading it itself.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createSandboxModule } from "../src/sandbox/sandbox-module.js";
import { compiledSandboxWasm } from "../src/sandbox/sandbox-wasm.js";

const run = promisify(execFile);

describe("the sandbox's start", () => {
  it("its entry point (the bundle, by the package's name) loads without the kernel, whose errors it shares", async () => {
    // The kernel's root loads reflect-metadata, which defines Reflect.getMetadata.
    const script = `
      const { runProgram } = await import("@pseudoclaude/plugin-code-mode/sandbox");
      const program = (source) => runProgram({
        source, tools: [], namespaces: {},
        host: { call: async () => ({ ok: false, code: "x", message: "x", atMs: 0 }) },
        start: { nowMs: 0, seed: [1, 2, 3, 4] },
      });
      const outcome = await program("const n: number = 40; return n + 2");
      const kernelLoaded = typeof Reflect.getMetadata === "function";
      const badLimits = await runProgram({
        source: "return 1", tools: [], namespaces: {}, limits: { maxCalls: -1 },
        host: { call: async () => ({ ok: false, code: "x", message: "x", atMs: 0 }) },
        start: { nowMs: 0, seed: [1, 2, 3, 4] },
      }).then(() => undefined, (error) => error);
      const { UsageError } = await import("@pseudoclaude/core");
      console.log(JSON.stringify({
        value: outcome.ok && outcome.value, kernelLoaded,
        usageError: badLimits instanceof UsageError, code: badLimits?.code,
      }));`;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], {
      cwd: fileURLToPath(new URL("../..", import.meta.url)),
      timeout: 30_000,
    });
    assert.deepEqual(JSON.parse(stdout), {
      value: 42,
      kernelLoaded: false,
      usageError: true,
      code: "invalid_program_options",
    });
  });

  it("compiles QuickJS's WebAssembly once per process, and a module runs on it or on its own load", async () => {
    const compiled = await compiledSandboxWasm();
    assert.ok(compiled, "the variant's .wasm file was found and compiled");
    assert.equal(await compiledSandboxWasm(), compiled, "compiled once");
    for (const module of [await createSandboxModule(compiled), await createSandboxModule()]) {
      const runtime = module.newRuntime();
      const context = runtime.newContext();
      const value = context.unwrapResult(context.evalCode("[1, 2, 3].map((n) => n * 2).join()"));
      assert.equal(context.dump(value), "2,4,6");
      value.dispose();
      context.dispose();
      runtime.dispose();
    }
  });
});
