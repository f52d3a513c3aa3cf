// Trace context crossing to MCP servers: a stdio server and a Streamable HTTP one each see the
// call's span in `params._meta` (both request paths: plain calls and calls with progress), the
// HTTP one also as the `traceparent` header; the call's span carries the MCP client facts.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type Agent, textOf } from "@pseudoclaude/core";
import { type HttpServerProcess, startHttpServer } from "@pseudoclaude/testing/system";
import { fixture, mcpAgent, stdioFixture } from "#mcp-test/mcp-fixtures.js";
import { captureTraces, type TraceCapture } from "./support/trace-capture.js";

interface Seen {
  meta: Record<string, unknown>;
  header: string | null;
}

async function whoami(agent: Agent): Promise<Seen> {
  const outcome = await agent.callTool("mcp__t__whoami", {});
  assert.equal(outcome.result.ok, true, JSON.stringify(outcome.result));
  return JSON.parse(textOf(outcome.result.content)) as Seen;
}

function spanParent(capture: TraceCapture): string {
  const span = capture.spans().at(-1)!;
  const { traceId, spanId } = span.spanContext();
  return `00-${traceId}-${spanId}-01`;
}

describe("trace context to MCP servers", () => {
  let http: HttpServerProcess;
  before(async () => {
    http = await startHttpServer({ script: fixture("traced"), env: { FIXTURE_HTTP: "1" } });
  });
  after(async () => {
    await http.stop();
  });

  for (const transport of ["stdio", "http"] as const) {
    it(`${transport}: the server gets the call's span in params._meta${transport === "http" ? " and as the traceparent header" : ""}`, async () => {
      const capture = captureTraces();
      const server =
        transport === "stdio" ? stdioFixture("traced") : { type: "http", url: http.url("/mcp") };
      const agent = await mcpAgent(
        { t: server },
        { policy: { mode: "bypass" }, tracing: { tracerProvider: capture.tracerProvider } },
      );
      try {
        const plain = await whoami(agent);
        const expected = spanParent(capture);
        assert.equal(capture.spans().at(-1)!.name, "execute_tool mcp__t__whoami");
        assert.equal(plain.meta.traceparent, expected);
        assert.equal(plain.header, transport === "http" ? expected : null);

        // With a progress listener the call takes the SDK's path: the trace is kept beside the
        // progress token.
        const progress: unknown[] = [];
        agent.on("tool-progress", (event) => progress.push(event.progress));
        const withProgress = await whoami(agent);
        assert.equal(progress.length, 1);
        assert.equal(withProgress.meta.traceparent, spanParent(capture));
        assert.notEqual(
          withProgress.meta.traceparent,
          plain.meta.traceparent,
          "each call its own span",
        );
        assert.ok(withProgress.meta.progressToken !== undefined);
        if (transport === "http") assert.equal(withProgress.header, spanParent(capture));

        const span = capture.spans().at(-1)!;
        assert.equal(span.attributes["mcp.method.name"], "tools/call");
        assert.equal(span.attributes["pseudoclaude.mcp.server"], "t");
        assert.match(String(span.attributes["mcp.protocol.version"]), /^\d{4}-\d{2}-\d{2}$/);
        assert.equal(span.attributes["network.transport"], transport === "stdio" ? "pipe" : "tcp");
        if (transport === "http") {
          assert.equal(span.attributes["server.address"], "127.0.0.1");
          assert.equal(span.attributes["server.port"], http.port);
          assert.match(String(span.attributes["mcp.session.id"]), /^[0-9a-f-]{36}$/);
        }
      } finally {
        await agent.close();
      }
    });
  }

  it("without a tracer nothing is added to the request", async () => {
    const agent = await mcpAgent({ t: stdioFixture("traced") }, { policy: { mode: "bypass" } });
    try {
      const seen = await whoami(agent);
      assert.deepEqual(seen.meta, {});
    } finally {
      await agent.close();
    }
  });
});
