import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Tracer, TracerProvider } from "@opentelemetry/api";
import { globalTracerRegistered, otelApi } from "./otel-api.js";

/** How an agent traces (`createAgent({ tracing })`); see docs/tracing.md. */
export interface TracingOptions {
  /**
   * Where spans go. Default: the global provider (`trace.getTracerProvider()`), which is a
   * no-op until an OpenTelemetry SDK registers one - then nothing is recorded.
   */
  tracerProvider?: TracerProvider | undefined;
  /**
   * Record prompts, answers, tool arguments and results on the spans. Default off; the
   * environment variable `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true` (the one
   * OpenTelemetry's GenAI instrumentations read) turns it on.
   */
  recordContent?: boolean | undefined;
}

/** The instrumentation scope every span carries. */
export const TRACER_NAME = "@pseudoclaude/core";

/**
 * Where an agent's spans go: `tracer()` answers the tracer to use now, or undefined when no
 * tracer provider is registered (then nothing is traced and the API is not even loaded). It is
 * asked at each run and call, so a provider registered after the agent was made still counts.
 */
export interface TracerSource {
  tracer(): Tracer | undefined;
  recordContent: boolean;
}

export function resolveTracer(options: TracingOptions | undefined): TracerSource {
  const recordContent =
    options?.recordContent ??
    process.env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT?.toLowerCase() === "true";
  const given = options?.tracerProvider;
  if (given) {
    const tracer = given.getTracer(TRACER_NAME, coreVersion());
    return { tracer: () => tracer, recordContent };
  }
  let global: Tracer | undefined;
  return {
    tracer: () => {
      if (!globalTracerRegistered()) return undefined;
      // The global tracer follows whatever provider is registered from now on.
      global ??= otelApi().trace.getTracer(TRACER_NAME, coreVersion());
      return global;
    },
    recordContent,
  };
}

let version: string | undefined;

/**
 * Read once, from the package.json that ships with this package, found by the package's name:
 * this module may run from dist/src or from a chunk of dist/bundle, at different depths.
 */
function coreVersion(): string {
  if (version !== undefined) return version;
  try {
    const manifest = JSON.parse(
      readFileSync(
        createRequire(import.meta.url).resolve("@pseudoclaude/core/package.json"),
        "utf8",
      ),
    ) as { version?: unknown };
    version = typeof manifest.version === "string" ? manifest.version : "unknown";
  } catch {
    version = "unknown";
  }
  return version;
}
