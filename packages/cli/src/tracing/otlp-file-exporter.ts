import { appendFileSync, closeSync, openSync } from "node:fs";
import { type ExportResult, ExportResultCode } from "@opentelemetry/core";
import { JsonTraceSerializer } from "@opentelemetry/otlp-transformer";
import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace-base";

/**
 * Spans as OTLP JSON lines: each line one `ExportTraceServiceRequest`, serialized by
 * OpenTelemetry's own OTLP transformer (the shape a collector's file exporter writes and
 * `otlp-json` readers take). Appended, never truncated, so two runs into one file keep both;
 * written synchronously, so a chat ended by Ctrl-C leaves every finished span on disk. The
 * file is created 0600: with content recording on it holds prompts and results.
 */
export class OtlpJsonLinesExporter implements SpanExporter {
  private fd: number | undefined;

  constructor(readonly file: string) {
    // Opened now, so a path that cannot be written is a usage error before anything starts.
    this.fd = openSync(file, "a", 0o600);
  }

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    if (this.fd === undefined) {
      done({ code: ExportResultCode.FAILED });
      return;
    }
    try {
      const line = Buffer.from(JsonTraceSerializer.serializeRequest(spans) ?? new Uint8Array());
      appendFileSync(this.fd, Buffer.concat([line, Buffer.from("\n")]));
      done({ code: ExportResultCode.SUCCESS });
    } catch (error) {
      done({ code: ExportResultCode.FAILED, error: error as Error });
    }
  }

  async shutdown(): Promise<void> {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }

  async forceFlush(): Promise<void> {}
}
