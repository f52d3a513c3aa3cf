import type {
  QuickJSContext,
  QuickJSHandle,
  VmFunctionImplementation,
} from "quickjs-emscripten-core";
import { errorText } from "./engine-error.js";
import { BRIDGE_PRELUDE } from "./guest-bridge.js";
import { DETERMINISM_PRELUDE } from "./guest-determinism.js";
import type { ProgramFailure } from "./guest-failure.js";
import type { VmGate } from "./vm-gate.js";

/** The host functions the bridge calls (see guest-bridge.ts for what each receives). */
export interface HostFunctions {
  call(name: QuickJSHandle, argsJson: QuickJSHandle): QuickJSHandle;
  log(level: QuickJSHandle, text: QuickJSHandle): QuickJSHandle;
  done(ok: QuickJSHandle, json: QuickJSHandle): undefined;
  now(): QuickJSHandle;
}

/**
 * What the guest is configured with: the tools it may call and where each sits in `tools`, its
 * seed, and the log budget (a longer console line is cut in the guest, before it is copied out).
 */
export interface GuestConfig {
  tools: readonly string[];
  paths: ReadonlyArray<readonly [readonly string[], string]>;
  seed: readonly number[];
  maxLogBytes: number;
}

/** The two guest functions the host keeps: `run(programFn)` and `settle(index, ok, json)`. */
export interface GuestBridge {
  run: QuickJSHandle;
  settle: QuickJSHandle;
}

/**
 * Install the preludes in a fresh context: deterministic time and chance first, then the
 * bridge. Returns the bridge's two functions, or why set-up failed.
 */
export function installGuest(
  context: QuickJSContext,
  gate: VmGate,
  functions: HostFunctions,
  config: GuestConfig,
): GuestBridge | ProgramFailure | undefined {
  const host = context.newObject();
  for (const [name, implementation] of Object.entries(functions)) {
    const fn = context.newFunction(name, implementation as VmFunctionImplementation<QuickJSHandle>);
    context.setProp(host, name, fn);
    fn.dispose();
  }
  const now = context.getProp(host, "now");
  const seed = context.newString(JSON.stringify(config.seed));
  const bridgeConfig = context.newString(
    JSON.stringify({ tools: config.tools, paths: config.paths, logChars: config.maxLogBytes }),
  );
  try {
    const clock = callPrelude(context, gate, DETERMINISM_PRELUDE, "determinism.js", [now, seed]);
    if (clock === undefined || "code" in clock) return clock;
    clock.dispose();
    const pair = callPrelude(context, gate, BRIDGE_PRELUDE, "bridge.js", [host, bridgeConfig]);
    if (pair === undefined || "code" in pair) return pair;
    const bridge = { run: context.getProp(pair, 0), settle: context.getProp(pair, 1) };
    pair.dispose();
    return bridge;
  } finally {
    if (!gate.lost) for (const handle of [host, now, seed, bridgeConfig]) handle.dispose();
  }
}

/** Evaluate a prelude (a function expression) and call it with `args`. */
function callPrelude(
  context: QuickJSContext,
  gate: VmGate,
  code: string,
  file: string,
  args: QuickJSHandle[],
): QuickJSHandle | ProgramFailure | undefined {
  const compiled = gate.enter(() => context.evalCode(code, file, { type: "global" }));
  if (!compiled) return undefined;
  if (compiled.error) return setUpFailure(context, compiled.error);
  const result = gate.enter(() => context.callFunction(compiled.value, context.undefined, ...args));
  if (!result) return undefined;
  compiled.value.dispose();
  if (result.error) return setUpFailure(context, result.error);
  return result.value;
}

function setUpFailure(context: QuickJSContext, error: QuickJSHandle): ProgramFailure {
  const text = errorText(context, error);
  error.dispose();
  const memory = /out of memory/.test(text);
  return {
    code: memory ? "MEMORY_LIMIT" : "INTERNAL",
    message: memory
      ? "The memory limit is too small to start a program."
      : `Sandbox set-up failed: ${text}`,
  };
}
