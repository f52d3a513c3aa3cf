import { readFileSync } from "node:fs";
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
 * Read once, from the package.json that ships with this package: the nearest one above this
 * module named @pseudoclaude/core (dist/src/tracing/ and dist/bundle/chunks/ sit at different
 * depths).
 */
function coreVersion(): string {
  if (version !== undefined) return version;
  version = "unknown";
  for (let up = "../"; up.length <= 5 * 3; up += "../") {
    try {
      const manifest = JSON.parse(
        readFileSync(new URL(`${up}package.json`, import.meta.url), "utf8"),
      ) as { name?: unknown; version?: unknown };
      if (manifest.name !== "@pseudoclaude/core") continue;
      if (typeof manifest.version === "string") version = manifest.version;
      break;
    } catch {
      // No package.json at this level: look further up.
    }
  }
  return version;
}
