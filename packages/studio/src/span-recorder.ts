import type { Context, TracerProvider } from "@opentelemetry/api";
import type {
  BasicTracerProvider,
  ReadableSpan,
  Span,
  SpanProcessor,
} from "@opentelemetry/sdk-trace-base";

/**
 * A finished span as the Traces page draws it. The page turns the OTLP JSON lines of a
 * `--trace` file into the same shape, so both are drawn by one waterfall.
 */
export interface StudioSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string | undefined;
  name: string;
  /** Milliseconds since the epoch, fractional. */
  startMs: number;
  endMs: number;
  /** `ok`, `error` or `unset`, as OpenTelemetry's status code. */
  status: "ok" | "error" | "unset";
  statusMessage?: string | undefined;
  attributes: Record<string, unknown>;
}

/** Spans kept in memory: enough for long sessions, bounded so a studio left open stays small. */
const MAX_SPANS = 20_000;

/** The package the recorder is built on: an optional peer, loaded only when a studio traces. */
export const TRACE_SDK_PACKAGE = "@opentelemetry/sdk-trace-base";

/**
 * The in-process tracer the studio gives the agent (`createAgent({ tracing: { tracerProvider } })`):
 * every span the agent ends is kept, newest last, for `/api/traces`. It is built on
 * OpenTelemetry's trace SDK, an optional peer (about 13 MiB with its dependencies) that an
 * install without traces does not carry: `SpanRecorder.start()` loads it.
 */
export class SpanRecorder {
  readonly tracerProvider: TracerProvider;
  private readonly spans: StudioSpan[] = [];
  private readonly listeners = new Set<() => void>();
  private readonly provider: BasicTracerProvider;

  /**
   * A recorder on `@opentelemetry/sdk-trace-base`; rejects with the import's error (code
   * `ERR_MODULE_NOT_FOUND`) when the package is not installed.
   */
  static async start(): Promise<SpanRecorder> {
    const sdk = (await import(TRACE_SDK_PACKAGE)) as typeof import("@opentelemetry/sdk-trace-base");
    return new SpanRecorder(sdk.BasicTracerProvider);
  }

  private constructor(Provider: typeof BasicTracerProvider) {
    const processor: SpanProcessor = {
      onStart: (_span: Span, _context: Context) => {},
      onEnd: (span: ReadableSpan) => this.add(span),
      forceFlush: async () => {},
      shutdown: async () => {},
    };
    this.provider = new Provider({ spanProcessors: [processor] });
    this.tracerProvider = this.provider;
  }

  list(traceId?: string): StudioSpan[] {
    return traceId ? this.spans.filter((span) => span.traceId === traceId) : [...this.spans];
  }

  /** Be told when a span ended. */
  onSpan(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async shutdown(): Promise<void> {
    await this.provider.shutdown();
  }

  private add(span: ReadableSpan): void {
    const context = span.spanContext();
    this.spans.push({
      traceId: context.traceId,
      spanId: context.spanId,
      parentSpanId: span.parentSpanContext?.spanId,
      name: span.name,
      startMs: hrToMs(span.startTime),
      endMs: hrToMs(span.endTime),
      status: span.status.code === 2 ? "error" : span.status.code === 1 ? "ok" : "unset",
      statusMessage: span.status.message,
      attributes: { ...span.attributes },
    });
    if (this.spans.length > MAX_SPANS) this.spans.splice(0, this.spans.length - MAX_SPANS);
    for (const listener of this.listeners) listener();
  }
}

function hrToMs([seconds, nanos]: [number, number]): number {
  return seconds * 1000 + nanos / 1e6;
}
