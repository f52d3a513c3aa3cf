/**
 * What a tool sees of the trace its call belongs to. Kept free of OpenTelemetry types so a
 * tool source needs no tracing library to pass the trace on; present only while a tracer
 * records the call.
 */
export interface ToolTrace {
  /**
   * The call span's trace context as W3C headers (`traceparent`, `tracestate` when there is
   * one, plus whatever the registered propagator adds): send them with a remote request (MCP
   * `params._meta`, HTTP headers) so the server continues the same trace.
   */
  readonly headers: Readonly<Record<string, string>>;
  /** Add facts to the call's span (an MCP source adds `mcp.session.id`, `network.transport`). */
  setAttributes(attributes: Readonly<Record<string, string | number | boolean>>): void;
}
