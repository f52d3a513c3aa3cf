import type { SandboxLimits } from "./sandbox-limits.js";

/** What one inner call answered: delivered to the program as a value or as a thrown ToolError. */
export type CallAnswer =
  | {
      ok: true;
      /** JSON-able; the program receives it parsed from its JSON text. */
      value: unknown;
      /** When the call settled; the program's clock moves here (never backwards) on delivery. */
      atMs: number;
    }
  | {
      ok: false;
      /** The kernel's error code (`denied`, `timeout`, `invalid_arguments` …): the ToolError's `.code`. */
      code: string;
      message: string;
      atMs: number;
    };

/** The host side of a program: runs its inner calls, reports time spent waiting for a person. */
export interface SandboxHost {
  /**
   * Run one inner call. `index` is the 0-based order in which the program made its calls.
   * Never throws: failures are answers. Called from a fresh task, never from inside the
   * program's own call, so the host may do anything (even run another program).
   */
  call(index: number, name: string, args: unknown, signal: AbortSignal): Promise<CallAnswer>;
  /** Milliseconds spent waiting for a person so far (approvals), excluded from wallMs. Optional. */
  pausedMs?(): number;
}

/** One program to run and everything it may reach. */
export interface ProgramOptions {
  /**
   * JavaScript or TypeScript (types are stripped); surrounding ``` fences are ignored. It is the
   * body of an async function: top-level `await` and `return` work.
   */
  source: string;
  /** Full tool names the program may call, e.g. "mcp__github__search_issues", "read_file". */
  tools: readonly string[];
  /**
   * Guest path -> full name, e.g. {"github.search_issues": "mcp__github__search_issues"}: builds
   * the frozen `tools` object. Every full name must be one of `tools`.
   */
  namespaces: Readonly<Record<string, string>>;
  host: SandboxHost;
  /** Virtual clock start and Math.random seed (sfc32): recorded, they make a run replayable. */
  start: { nowMs: number; seed: readonly [number, number, number, number] };
  limits?: Partial<SandboxLimits> | undefined;
  signal?: AbortSignal | undefined;
}

/** Why a program did not return a value. */
export type ProgramErrorCode =
  | "SYNTAX"
  | "THROWN"
  | "TIMEOUT"
  | "CPU_LIMIT"
  | "MEMORY_LIMIT"
  | "STACK_OVERFLOW"
  | "CALL_LIMIT"
  | "OUTPUT_LIMIT"
  | "STALLED"
  | "ABORTED"
  | "INTERNAL";

/** How a program ended: its value, or a code and a message meant for the model that wrote it. */
export type ProgramOutcome =
  | {
      ok: true;
      /** The returned value as it came through JSON (`undefined` became `null`). */
      value: unknown;
      /** Console output kept (capped by maxLogBytes), one line per call. */
      logs: string;
      /** Things the program should know but that did not stop it (calls left running, logs cut). */
      warnings: string[];
      /** Inner calls the program made (those given an index). */
      calls: number;
      durationMs: number;
    }
  | {
      ok: false;
      code: ProgramErrorCode;
      message: string;
      /** Source line the failure points at, when known. */
      line?: number;
      logs: string;
      warnings: string[];
      calls: number;
      durationMs: number;
    };
