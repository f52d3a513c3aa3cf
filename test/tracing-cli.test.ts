// Tracing through the real CLI: `--trace FILE` writes OTLP JSON lines that hold the run, its
// model requests and its MCP call, in the same trace the MCP server was sent; the standard
// OTEL_* variables drive an installed OpenTelemetry SDK to a local OTLP/HTTP collector; a
// path that cannot be written is a usage error; a missing SDK is said, not silently ignored.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { describe, it } from "node:test";
import { startCliTracing } from "@pseudoclaude/cli";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import { fixture } from "#mcp-test/mcp-fixtures.js";
import { runCli } from "./support/cli.js";

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Array<{ key: string; value: Record<string, unknown> }>;
}

interface OtlpRequest {
  resourceSpans: Array<{
    resource: { attributes: Array<{ key: string; value: Record<string, unknown> }> };
    scopeSpans: Array<{ scope: { name: string }; spans: OtlpSpan[] }>;
  }>;
}

function spansOf(requests: OtlpRequest[]): OtlpSpan[] {
  return requests.flatMap((request) =>
    request.resourceSpans.flatMap((resource) =>
      resource.scopeSpans.flatMap((scope) => scope.spans),
    ),
  );
}

function serviceName(request: OtlpRequest): unknown {
  return request.resourceSpans[0]!.resource.attributes.find((a) => a.key === "service.name")?.value
    .stringValue;
}

async function tracedWorkspace(): Promise<TempWorkspace> {
  const workspace = await createTempWorkspace("pc-trace-cli-");
  await workspace.writeConfig(
    "user",
    [
      "mcp_servers:",
      "  t:",
      "    type: stdio",
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: ${JSON.stringify([fixture("traced")])}`,
    ].join("\n"),
  );
  await workspace.write(
    "script.json",
    JSON.stringify([
      { tool_calls: [{ id: "c1", name: "mcp__t__whoami", arguments: {} }] },
      { text: "traced." },
    ]),
  );
  return workspace;
}

const RUN = ["run", "Who am I?", "--script", "script.json", "--yes", "--json"];

describe("tracing in the CLI", () => {
  it("--trace FILE writes the run as OTLP JSON lines, in the trace the MCP server continued", async () => {
    const workspace = await tracedWorkspace();
    try {
      const result = await runCli(workspace, [...RUN, "--trace", "trace.jsonl"]);
      assert.equal(result.code, 0, result.stderr);
      const lines = (await readFile(path.join(workspace.root, "trace.jsonl"), "utf8"))
        .split("\n")
        .filter(Boolean);
      const requests = lines.map((line) => JSON.parse(line) as OtlpRequest);
      assert.equal(serviceName(requests[0]!), "pseudoclaude");
      const spans = spansOf(requests);
      assert.deepEqual(spans.map((span) => span.name).sort(), [
        "chat script",
        "chat script",
        "execute_tool mcp__t__whoami",
        "invoke_agent pseudoclaude",
      ]);
      const call = spans.find((span) => span.name.startsWith("execute_tool"))!;
      const run = spans.find((span) => span.name.startsWith("invoke_agent"))!;
      assert.equal(call.parentSpanId, run.spanId);
      assert.ok(spans.every((span) => span.traceId === run.traceId));

      // What the server was sent is this very span.
      const output = JSON.parse(result.stdout) as {
        tool_calls: Array<{ result: { content: Array<{ text: string }> } }>;
      };
      const seen = JSON.parse(output.tool_calls[0]!.result.content[0]!.text) as {
        meta: { traceparent: string };
      };
      assert.equal(seen.meta.traceparent, `00-${call.traceId}-${call.spanId}-01`);

      // A second run appends: both traces are kept.
      const again = await runCli(workspace, [...RUN, "--trace", "trace.jsonl"]);
      assert.equal(again.code, 0, again.stderr);
      const all = spansOf(
        (await readFile(path.join(workspace.root, "trace.jsonl"), "utf8"))
          .split("\n")
          .filter(Boolean)
          .map((line) => JSON.parse(line) as OtlpRequest),
      );
      assert.equal(new Set(all.map((span) => span.traceId)).size, 2);
    } finally {
      await workspace.cleanup();
    }
  });

  it("a --trace path that cannot be written is a usage error, before anything starts", async () => {
    const workspace = await tracedWorkspace();
    try {
      const result = await runCli(workspace, [...RUN, "--trace", "no/such/dir/trace.jsonl"]);
      assert.equal(result.code, 2);
      assert.match(result.stderr, /--trace .*no\/such\/dir\/trace\.jsonl cannot be written/);
    } finally {
      await workspace.cleanup();
    }
  });

  it("OTEL_* variables send the spans through the installed OpenTelemetry SDK to an OTLP collector", async () => {
    const received: Array<{ path: string; body: OtlpRequest }> = [];
    const collector = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        received.push({
          path: request.url ?? "",
          body: JSON.parse(Buffer.concat(chunks).toString()) as OtlpRequest,
        });
        response.writeHead(200, { "Content-Type": "application/json" });
        response.end("{}");
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
    const { port } = collector.address() as AddressInfo;
    const workspace = await tracedWorkspace();
    try {
      const result = await runCli(workspace, RUN, {
        env: {
          OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
          OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
          OTEL_SERVICE_NAME: "my-agent",
          OTEL_METRICS_EXPORTER: "none",
          OTEL_LOGS_EXPORTER: "none",
        },
      });
      assert.equal(result.code, 0, result.stderr);
      const traces = received.filter((entry) => entry.path === "/v1/traces");
      assert.ok(traces.length > 0, `the collector got ${received.map((r) => r.path).join(", ")}`);
      assert.equal(serviceName(traces[0]!.body), "my-agent");
      const names = spansOf(traces.map((entry) => entry.body)).map((span) => span.name);
      assert.ok(names.includes("invoke_agent pseudoclaude"), names.join(", "));
      assert.ok(names.includes("execute_tool mcp__t__whoami"), names.join(", "));
    } finally {
      await workspace.cleanup();
      await new Promise<void>((resolve) => collector.close(() => resolve()));
    }
  });

  it("says so when OTEL_* asks for an exporter and no SDK is installed", async () => {
    let said = "";
    const tracing = await startCliTracing({
      file: undefined,
      cwd: process.cwd(),
      workspace: process.cwd(),
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:1" },
      stderr: {
        write: (text: string) => {
          said += text;
        },
      } as never,
      loadSdk: () => Promise.reject(new Error("Cannot find package '@opentelemetry/sdk-node'")),
    });
    assert.equal(tracing.tracerProvider, undefined);
    assert.match(
      said,
      /OTEL_EXPORTER_OTLP_ENDPOINT is set, but @opentelemetry\/sdk-node is not installed/,
    );
    // Nothing asked for: nothing said, nothing loaded.
    const before = said;
    let loaded = false;
    await startCliTracing({
      file: undefined,
      cwd: process.cwd(),
      workspace: process.cwd(),
      env: { OTEL_TRACES_EXPORTER: "none", OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:1" },
      stderr: {
        write: () => {
          said += "!";
        },
      } as never,
      loadSdk: () => {
        loaded = true;
        return Promise.reject(new Error("no"));
      },
    });
    assert.equal(loaded, false);
    assert.equal(said, before);
  });
});
