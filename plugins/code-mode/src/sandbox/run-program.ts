import { performance } from "node:perf_hooks";
import { UsageError } from "@pseudoclaude/core/errors";
import { loadTransformer, prepareSource } from "./program-source.js";
import type { ProgramOptions, ProgramOutcome } from "./program-types.js";
import { resolveLimits } from "./sandbox-limits.js";
import { runOnPool, warmPool } from "./worker-pool.js";

/**
 * Run one program in a fresh QuickJS runtime and context, on a sandbox worker thread (see
 * worker-pool.ts), and release both before returning. Whatever the program does, the answer is
 * an outcome; only options that no program could run with (a namespace naming a tool not in
 * `tools`, a limit that is not a positive integer) reject, with a UsageError.
 */
export async function runProgram(options: ProgramOptions): Promise<ProgramOutcome> {
  const startedAt = performance.now();
  const limits = resolveLimits(options.limits);
  const paths = toolPaths(options);
  const seed = [...options.start.seed];
  if (seed.length !== 4 || !seed.every((part) => Number.isInteger(part)))
    throw invalid("start.seed must be four integers.");
  if (!Number.isFinite(options.start.nowMs)) throw invalid("start.nowMs must be a finite number.");
  const early = (code: "ABORTED" | "SYNTAX" | "INTERNAL", message: string, line?: number) => ({
    ok: false as const,
    code,
    message,
    ...(line === undefined ? {} : { line }),
    logs: "",
    warnings: [],
    calls: 0,
    durationMs: performance.now() - startedAt,
  });
  if (options.signal?.aborted) return early("ABORTED", "The program was cancelled.");
  // The worker starts while the source is prepared (the TypeScript stripper may be loading
  // too): on a cold pool the two would otherwise wait for each other.
  warmPool().catch(() => undefined);
  let prepared: Awaited<ReturnType<typeof prepareSource>>;
  try {
    prepared = await prepareSource(options.source);
  } catch (error) {
    return early("INTERNAL", `The sandbox could not be loaded: ${messageOf(error)}`);
  }
  if (!prepared.ok) return early("SYNTAX", prepared.message, prepared.line);
  if (options.signal?.aborted) return early("ABORTED", "The program was cancelled.");
  try {
    return await runOnPool({
      start: {
        code: prepared.code,
        source: options.source,
        tools: [...options.tools],
        paths,
        seed,
        nowMs: options.start.nowMs,
        limits,
      },
      host: options.host,
      signal: options.signal,
      startedAt,
    });
  } catch (error) {
    return early("INTERNAL", `The sandbox could not be loaded: ${messageOf(error)}`);
  }
}

/** Start the sandbox's worker and load the TypeScript stripper ahead of the first program (optional). */
export async function warmSandbox(): Promise<void> {
  await Promise.all([warmPool(), loadTransformer()]);
}

/** `{"github.search_issues": "mcp__github__search_issues"}` -> `[["github","search_issues"], full]`. */
function toolPaths(options: ProgramOptions): Array<[string[], string]> {
  const known = new Set(options.tools);
  const paths: Array<[string[], string]> = [];
  const leaves = new Set<string>();
  for (const [path, name] of Object.entries(options.namespaces)) {
    const segments = path.split(".");
    if (segments.some((segment) => segment === "") || !known.has(name))
      throw invalid(
        known.has(name)
          ? `Namespace "${path}" has an empty segment.`
          : `Namespace "${path}" names "${name}", which is not one of the program's tools.`,
      );
    for (let depth = 1; depth < segments.length; depth++)
      if (leaves.has(segments.slice(0, depth).join(".")))
        throw invalid(
          `Namespace "${path}" is inside the tool "${segments.slice(0, depth).join(".")}".`,
        );
    leaves.add(path);
    paths.push([segments, name]);
  }
  for (const [segments] of paths) {
    const prefix = `${segments.join(".")}.`;
    const inner = paths.find(([other]) => other.join(".").startsWith(prefix));
    if (inner)
      throw invalid(
        `Namespace "${inner[0].join(".")}" is inside the tool "${segments.join(".")}".`,
      );
  }
  return paths;
}

function invalid(message: string): UsageError {
  return new UsageError("invalid_program_options", message);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
