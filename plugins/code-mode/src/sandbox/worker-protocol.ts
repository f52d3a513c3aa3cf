// The messages between the agent's thread and a sandbox worker. Only strings, numbers, plain
// objects and QuickJS's compiled WebAssembly cross: the guest's values never leave the worker
// except as JSON text, and the host's answers enter it the same way.
import type { ProgramFailure } from "./guest-failure.js";
import type { SandboxLimits } from "./sandbox-limits.js";
import type { CompiledWasm } from "./sandbox-wasm.js";

/** How a run ended in the worker: the returned value's JSON, or a failure. */
export type Ending = { ok: true; json: string } | ({ ok: false } & ProgramFailure);

/** One answer on its way into the program: JSON text the guest parses. */
export interface Delivery {
  index: number;
  ok: boolean;
  /** The value's JSON when ok; `{"code","message"}` when not. */
  payload: string;
  atMs: number;
}

/** The worker's WebAssembly modules: loaded, thrown away after a crash, and the live one's size. */
export interface ModuleStats {
  created: number;
  discarded: number;
  memoryBytes: number;
}

/** Start a program: everything it needs, checked and prepared by the agent's thread. */
export interface StartMessage {
  type: "start";
  runId: number;
  /** The wrapped program (see program-source.ts) and the source its line numbers refer to. */
  code: string;
  source: string;
  tools: string[];
  paths: Array<[string[], string]>;
  seed: number[];
  nowMs: number;
  limits: SandboxLimits;
  /** The run's CPU meter (see cpu-meter.ts), shared with the agent's thread. */
  meter: SharedArrayBuffer;
}

/** What the agent's thread sends a worker. */
export type ToWorker =
  /** Sent first: QuickJS's compiled WebAssembly, or undefined for the worker to load it itself. */
  | { type: "wasm"; module: CompiledWasm | undefined }
  | StartMessage
  | { type: "answer"; runId: number; answer: Delivery }
  /** Stop the run now (its wall time ran out, its caller gave up); the agent's thread says why. */
  | { type: "abort"; runId: number };

/** The end of a run, with what the worker counted on the way. */
export interface DoneMessage {
  type: "done";
  runId: number;
  ending: Ending;
  /** Calls the program made (each got an index). */
  calls: number;
  /** Calls made after the program returned (refused). */
  lateCalls: number;
  /** True when console output was cut at the log budget. */
  logsCut: boolean;
  warnings: string[];
  stats: ModuleStats;
}

/** What a worker sends, always as an array: everything one turn of the worker produced. */
export type FromWorker =
  /** The module is loaded: the worker can run programs. */
  | { type: "ready"; stats: ModuleStats }
  | { type: "call"; runId: number; index: number; name: string; argsJson: string }
  | { type: "log"; runId: number; line: string }
  | DoneMessage;

/**
 * The longest string (in UTF-16 units) that crosses between the guest and the worker's own
 * heap: a call's arguments, the returned value, a tool's answer. The worker's JavaScript heap is
 * capped, and in Node 20 one allocation that jumps past the cap aborts the whole process (the
 * worker's out-of-memory exit only catches a heap that grows in small steps), so no single
 * string may come near it, whatever memory a program is given.
 */
export const MAX_BRIDGE_CHARS = 32 * 1024 * 1024;
