import { readFileSync } from "node:fs";
import { type Tracer, type TracerProvider, trace } from "@opentelemetry/api";

/** How an agent traces (`createAgent({ tracing })`); see docs/tracing.md. */
export interface TracingOptions {
  /**
   * Where spans go. Default: the global provider (`trace.getTracerProvider()`), which is a
   * no-op until an OpenTelemetry SDK registers one - then nothing is recorded.
   */
  tracerProvider?: TracerProvider;
  /**
   * Record prompts, answers, tool arguments and results on the spans. Default off; the
   * environment variable `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true` (the one
   * OpenTelemetry's GenAI instrumentations read) turns it on.
   */
  recordContent?: boolean;
}

/** The instrumentation scope every span carries. */
export const TRACER_NAME = "@pseudoclaude/core";

export function resolveTracer(options: TracingOptions | undefined): {
  tracer: Tracer;
  recordContent: boolean;
} {
  const provider = options?.tracerProvider ?? trace.getTracerProvider();
  return {
    tracer: provider.getTracer(TRACER_NAME, coreVersion()),
    recordContent:
      options?.recordContent ??
      process.env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT?.toLowerCase() === "true",
  };
}

let version: string | undefined;

/** Read once, from the package.json that ships with this package (dist/src/tracing/ -> root). */
function coreVersion(): string {
  if (version !== undefined) return version;
  try {
    const manifest = JSON.parse(
      readFileSync(new URL("../../../package.json", import.meta.url), "utf8"),
    ) as { version?: unknown };
    version = typeof manifest.version === "string" ? manifest.version : "unknown";
  } catch {
    version = "unknown";
  }
  return version;
}
