import type { Tracer } from "@opentelemetry/api";
import type { Contender, ServerSpec } from "../contender.js";
import { connectRaw, type RawClient } from "./raw-client.js";
import { openRawSdk, rawSdk } from "./raw-sdk.js";

/**
 * The raw SDK's call inside the span a recording tracer makes for one call: the same name,
 * kind and attributes (GenAI and MCP conventions), the execute event, and the trace context in
 * the request's `_meta`, with OpenTelemetry's SDK exporting nowhere. What recording a span per
 * call costs any client: the floor of `pseudoclaude-traced`.
 */
export const rawSdkTraced: Contender = {
  name: "raw-sdk-traced",
  package: `${rawSdk.package} in an OpenTelemetry span per call`,
  async load() {
    await Promise.all([rawSdk.load(), import("@opentelemetry/sdk-trace-base")]);
  },
  async connect(servers) {
    const { BasicTracerProvider } = await import("@opentelemetry/sdk-trace-base");
    const tracer = new BasicTracerProvider().getTracer("bench");
    return connectRaw(servers, async (spec) => inSpans(await openRawSdk(spec), spec, tracer));
  },
};

let calls = 0;

function inSpans(client: RawClient, spec: ServerSpec, tracer: Tracer): RawClient {
  return {
    listTools: () => client.listTools(),
    close: () => client.close(),
    async callTool(params) {
      const name = `mcp__${spec.name}__${params.name}`;
      const span = tracer.startSpan(`execute_tool ${name}`, {
        kind: 0,
        attributes: {
          "gen_ai.operation.name": "execute_tool",
          "gen_ai.tool.name": name,
          "gen_ai.tool.call.id": `call_${++calls}`,
          "pseudoclaude.agent.depth": 0,
          "pseudoclaude.turn": 0,
        },
      });
      span.setAttributes({
        "pseudoclaude.tool.source": `mcp:${spec.name}`,
        "pseudoclaude.tool.safety": "side_effect",
        "gen_ai.tool.description": "Echoes its text.",
      });
      span.setAttributes({
        "pseudoclaude.policy.verdict": "allow",
        "pseudoclaude.policy.basis": "mode",
        "pseudoclaude.policy.rule": "mode:bypass",
      });
      span.addEvent("pseudoclaude.tool.execute");
      const { traceId, spanId } = span.spanContext();
      span.setAttributes({
        "mcp.method.name": "tools/call",
        "mcp.protocol.version": "2025-11-25",
        "network.transport": "pipe",
      });
      try {
        return await client.callTool({
          ...params,
          _meta: { traceparent: `00-${traceId}-${spanId}-01` },
        } as typeof params);
      } finally {
        span.end();
      }
    },
  };
}
