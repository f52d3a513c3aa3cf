import type { StudioSpan } from "../types.js";

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpValue[] };
}

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes?: Array<{ key: string; value: OtlpValue }>;
  status?: { code?: number; message?: string };
}

/**
 * The spans of a `--trace FILE` (OTLP JSON lines: each line an ExportTraceServiceRequest, as
 * OpenTelemetry's JSON serializer writes it) in the shape the waterfall draws. A line that is
 * not such a request is reported with its number.
 */
export function parseOtlpLines(text: string): { spans: StudioSpan[]; problems: string[] } {
  const spans: StudioSpan[] = [];
  const problems: string[] = [];
  text.split("\n").forEach((line, index) => {
    if (line.trim() === "") return;
    try {
      const request = JSON.parse(line) as {
        resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: OtlpSpan[] }> }>;
      };
      if (!Array.isArray(request.resourceSpans)) throw new Error("no resourceSpans");
      for (const resource of request.resourceSpans)
        for (const scope of resource.scopeSpans ?? [])
          for (const span of scope.spans ?? []) spans.push(toStudioSpan(span));
    } catch (error) {
      problems.push(`line ${index + 1}: ${(error as Error).message}`);
    }
  });
  return { spans, problems };
}

function toStudioSpan(span: OtlpSpan): StudioSpan {
  const attributes: Record<string, unknown> = {};
  for (const { key, value } of span.attributes ?? []) attributes[key] = attributeValue(value);
  const code = span.status?.code ?? 0;
  return {
    traceId: span.traceId,
    spanId: span.spanId,
    ...(span.parentSpanId ? { parentSpanId: span.parentSpanId } : {}),
    name: span.name,
    startMs: Number(span.startTimeUnixNano) / 1e6,
    endMs: Number(span.endTimeUnixNano) / 1e6,
    status: code === 2 ? "error" : code === 1 ? "ok" : "unset",
    ...(span.status?.message ? { statusMessage: span.status.message } : {}),
    attributes,
  };
}

function attributeValue(value: OtlpValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(attributeValue);
  return null;
}
