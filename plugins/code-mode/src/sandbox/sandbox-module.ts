// One QuickJS WebAssembly module serves every program of a sandbox worker; each program gets a
// runtime of its own on it (own heap limit, own GC), so a module costs its load once. The
// module is loaded by dynamic import when the worker starts: importing the plugin costs nothing.
import type { QuickJSWASMModule } from "quickjs-emscripten-core";
import { warmUpModule } from "./module-warm-up.js";
import { patchExecutePendingJobs } from "./pending-jobs-patch.js";
import type { CompiledWasm } from "./sandbox-wasm.js";

/**
 * A program's hold on the shared module. A host-level stack overflow or a WebAssembly abort
 * leaves the module in an unknown state: the program that saw it poisons the module, which is
 * then dropped (the next program loads a fresh one) and every other holder is told to stop
 * touching it.
 */
export interface ModuleLease {
  readonly module: QuickJSWASMModule;
  /** True once the module was discarded: nothing may enter or dispose anything on it. */
  readonly lost: boolean;
  /** Discard the module for everyone; the other holders' `onLost` listeners run. */
  poison(): void;
  /** Called when another holder poisoned the module. */
  onLost(listener: () => void): void;
  /** The program is done with the module. */
  release(): void;
}

class SharedModule {
  lost = false;
  readonly leases = new Set<Lease>();
  constructor(readonly module: QuickJSWASMModule) {}

  discard(by: Lease): void {
    if (this.lost) return;
    this.lost = true;
    stats.discarded += 1;
    if (currentModule === this) {
      current = undefined;
      currentModule = undefined;
    }
    for (const lease of [...this.leases]) if (lease !== by) lease.notifyLost();
  }
}

class Lease implements ModuleLease {
  private listener: (() => void) | undefined;
  constructor(private readonly shared: SharedModule) {
    shared.leases.add(this);
  }
  get module(): QuickJSWASMModule {
    return this.shared.module;
  }
  get lost(): boolean {
    return this.shared.lost;
  }
  poison(): void {
    this.shared.discard(this);
  }
  onLost(listener: () => void): void {
    this.listener = listener;
  }
  notifyLost(): void {
    this.listener?.();
  }
  release(): void {
    this.shared.leases.delete(this);
  }
}

let current: Promise<SharedModule> | undefined;
let currentModule: SharedModule | undefined;
const stats = { created: 0, discarded: 0 };

let givenWasm: Promise<CompiledWasm | undefined> = Promise.resolve(undefined);

/** Build modules from this compiled WebAssembly (the worker's host sends it, see sandbox-wasm.ts). */
export function useCompiledWasm(wasm: Promise<CompiledWasm | undefined>): void {
  givenWasm = wasm;
}

/**
 * A new module with the library patched, on the compiled WebAssembly when given; tests use it to get memory that
 * has not grown yet.
 */
export async function createSandboxModule(
  compiled?: CompiledWasm | Promise<CompiledWasm | undefined>,
): Promise<QuickJSWASMModule> {
  // The library loads while the compiled WebAssembly is still on its way.
  const [core, variant, wasm] = await Promise.all([
    import("quickjs-emscripten-core"),
    import("@jitl/quickjs-wasmfile-release-sync"),
    compiled,
  ]);
  patchExecutePendingJobs(core);
  // The package's types describe CommonJS (a namespace holding `default`); its ES module build,
  // what Node loads, exports the variant as `default` itself.
  const exported = variant.default;
  const base = "default" in exported ? exported.default : exported;
  // Without a compiled module, the variant loads its .wasm file from its own folder.
  return core.newQuickJSWASMModuleFromVariant(
    wasm ? core.newVariant(base, { wasmModule: wasm }) : base,
  );
}

/** Hold the shared module for one program, loading it first if needed. */
export async function leaseSandboxModule(): Promise<ModuleLease> {
  if (!current) {
    const loading = createSandboxModule(givenWasm).then((module) => {
      warmUpModule(module);
      stats.created += 1;
      const shared = new SharedModule(module);
      if (current === loading) currentModule = shared;
      return shared;
    });
    current = loading;
  }
  const pending = current;
  let shared: SharedModule;
  try {
    shared = await pending;
  } catch (error) {
    // A failed load is not cached: the next program tries again.
    if (current === pending) current = undefined;
    throw error;
  }
  return shared.lost ? leaseSandboxModule() : new Lease(shared);
}

/** How many modules were loaded and discarded so far, and the live module's memory (tests). */
export function sandboxModuleStats(): { created: number; discarded: number; memoryBytes: number } {
  const emscripten = (currentModule?.module as unknown as { module?: { HEAPU8: Uint8Array } })
    ?.module;
  return { ...stats, memoryBytes: emscripten?.HEAPU8.byteLength ?? 0 };
}
