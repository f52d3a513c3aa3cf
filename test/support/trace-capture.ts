// Spans captured with the OpenTelemetry SDK's own in-memory exporter, through a tracer
// provider handed to the agent (nothing global, so tests cannot see each other's spans).
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";

export interface TraceCapture {
  tracerProvider: BasicTracerProvider;
  spans(): ReadableSpan[];
  /** The one span with this name; fails the test when there are none or several. */
  one(name: string): ReadableSpan;
  named(name: string): ReadableSpan[];
  /** The span's parent among the captured ones. */
  parentOf(span: ReadableSpan): ReadableSpan | undefined;
}

export function captureTraces(): TraceCapture {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const spans = () => exporter.getFinishedSpans();
  const named = (name: string) => spans().filter((span) => span.name === name);
  return {
    tracerProvider,
    spans,
    named,
    one(name) {
      const found = named(name);
      if (found.length !== 1)
        throw new Error(
          `expected one span "${name}", found ${found.length} among: ${spans()
            .map((span) => span.name)
            .join(", ")}`,
        );
      return found[0]!;
    },
    parentOf(span) {
      const parent = span.parentSpanContext?.spanId;
      return parent ? spans().find((other) => other.spanContext().spanId === parent) : undefined;
    },
  };
}
