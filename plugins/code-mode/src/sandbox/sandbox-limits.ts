import { UsageError } from "@pseudoclaude/core/errors";

/** What one program may use. Every limit ends the program with its own code when passed. */
export interface SandboxLimits {
  /** QuickJS heap of the program's runtime (`MEMORY_LIMIT`). */
  memoryBytes: number;
  /**
   * QuickJS stack (`STACK_OVERFLOW`). Its WebAssembly frames also live on the worker thread's
   * own 8 MiB stack: up to about 2 MiB QuickJS stops the program first; deeper, the thread's
   * stack may overflow first, which ends the program all the same but replaces the worker's
   * module (and fails the programs running on it).
   */
  stackBytes: number;
  /** Time spent running guest code, summed over every slice (`CPU_LIMIT`). */
  cpuMs: number;
  /** Whole program, less the time the host reports as waiting for a person (`TIMEOUT`). */
  wallMs: number;
  /** Inner tool calls; one more stops the program (`CALL_LIMIT`). */
  maxCalls: number;
  /** Inner calls running at once; further calls wait their turn, they are not refused. */
  maxConcurrentCalls: number;
  /** JSON of one call's arguments; more is refused to the program as `invalid_arguments`. */
  maxArgumentBytes: number;
  /** JSON of the program's returned value (`OUTPUT_LIMIT`). */
  maxResultBytes: number;
  /** Console output kept; the rest is dropped with a warning. */
  maxLogBytes: number;
}

/** Defaults sized for a short orchestration program on a sandbox worker thread. */
export const DEFAULT_SANDBOX_LIMITS: Readonly<SandboxLimits> = Object.freeze({
  memoryBytes: 32 * 1024 * 1024,
  stackBytes: 512 * 1024,
  cpuMs: 2_000,
  wallMs: 60_000,
  maxCalls: 200,
  maxConcurrentCalls: 8,
  maxArgumentBytes: 256 * 1024,
  maxResultBytes: 64 * 1024,
  maxLogBytes: 16 * 1024,
});

/** Below these a runtime cannot even hold the sandbox's own set-up. */
const MINIMUM_LIMITS: Readonly<Partial<SandboxLimits>> = {
  memoryBytes: 1024 * 1024,
  stackBytes: 16 * 1024,
};

/**
 * The defaults with `overrides` applied. A limit that is not a positive integer, or under its
 * minimum (1 MiB of memory, 16 KiB of stack), is a usage error.
 */
export function resolveLimits(overrides: Partial<SandboxLimits> = {}): SandboxLimits {
  const limits = { ...DEFAULT_SANDBOX_LIMITS };
  for (const [key, value] of Object.entries(overrides) as Array<[keyof SandboxLimits, unknown]>) {
    if (value === undefined) continue;
    if (!(key in DEFAULT_SANDBOX_LIMITS))
      throw new UsageError("invalid_program_options", `Unknown sandbox limit "${key}".`, {
        details: { limit: key },
      });
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0)
      throw new UsageError(
        "invalid_program_options",
        `Sandbox limit ${key} must be a positive integer (got ${String(value)}).`,
        { details: { limit: key } },
      );
    const minimum = MINIMUM_LIMITS[key] ?? 1;
    if (value < minimum)
      throw new UsageError(
        "invalid_program_options",
        `Sandbox limit ${key} must be at least ${minimum} (got ${value}).`,
        { details: { limit: key } },
      );
    limits[key] = value;
  }
  return limits;
}
