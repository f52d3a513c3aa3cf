// QuickJS's WebAssembly, compiled once per process on the agent's thread and handed to each
// sandbox worker: the compile runs while the worker's thread boots instead of after, and a
// worker that replaces one ended by force starts on code already compiled (V8 shares a
// module's compiled functions between the threads it is sent to).
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";

/**
 * QuickJS's compiled WebAssembly (a `WebAssembly.Module`, which crosses to a worker by
 * postMessage). The libraries this package builds with do not declare WebAssembly's types.
 */
export type CompiledWasm = object;
declare const WebAssembly: { compile(bytes: Uint8Array): Promise<CompiledWasm> };

let compiled: Promise<CompiledWasm | undefined> | undefined;

/**
 * The variant package's .wasm file compiled, or undefined when it cannot be (then each worker
 * loads it itself, as the variant does by default, and reports any error as its own).
 */
export function compiledSandboxWasm(): Promise<CompiledWasm | undefined> {
  compiled ??= compile().catch(() => undefined);
  return compiled;
}

async function compile(): Promise<CompiledWasm> {
  const manifest = createRequire(import.meta.url).resolve(
    "@jitl/quickjs-wasmfile-release-sync/package.json",
  );
  const bytes = await readFile(path.join(path.dirname(manifest), "dist", "emscripten-module.wasm"));
  return WebAssembly.compile(bytes);
}
