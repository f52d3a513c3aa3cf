// A small HTTP/2 (h2c) load balancer for the durable-runs tests, as Envoy or a cloud load
// balancer would sit in front of workers: each request (an invocation's stream) goes to the
// next worker in turn, streamed both ways. Restate pins a run to the deployment URL it was
// registered with; behind this one URL, two workers share the runs.
import http2 from "node:http2";
import type { AddressInfo } from "node:net";

export interface Balancer {
  url: string;
  /** How many requests went to each worker, in the order they were given. */
  counts: number[];
  close(): Promise<void>;
}

// Hop-by-hop and pseudo headers the proxy must not copy onto its own request or answer.
const NOT_FORWARDED = new Set([":status", "connection", "keep-alive", "transfer-encoding"]);

function forwardable(headers: http2.IncomingHttpHeaders): http2.OutgoingHttpHeaders {
  const out: http2.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers))
    if (!NOT_FORWARDED.has(name) && value !== undefined) out[name] = value;
  return out;
}

export async function startBalancer(workers: readonly string[]): Promise<Balancer> {
  const counts = workers.map(() => 0);
  const upstreams = new Map<number, http2.ClientHttp2Session>();
  const upstream = (index: number): http2.ClientHttp2Session => {
    const open = upstreams.get(index);
    if (open && !open.closed && !open.destroyed) return open;
    const session = http2.connect(workers[index]!);
    session.on("error", () => upstreams.delete(index));
    session.on("close", () => upstreams.delete(index));
    upstreams.set(index, session);
    return session;
  };
  const inbound = new Set<http2.ServerHttp2Session>();
  let next = 0;
  const server = http2.createServer();
  server.on("session", (session) => {
    inbound.add(session);
    session.once("close", () => inbound.delete(session));
  });
  server.on("stream", (stream, headers) => {
    const index = next++ % workers.length;
    counts[index]! += 1;
    let request: http2.ClientHttp2Stream;
    try {
      request = upstream(index).request(forwardable(headers));
    } catch {
      stream.respond({ ":status": 502 });
      stream.end();
      return;
    }
    request.on("response", (answer) => {
      if (!stream.destroyed)
        stream.respond({ ...forwardable(answer), ":status": answer[":status"] });
    });
    request.on("error", () => {
      if (!stream.headersSent && !stream.destroyed) stream.respond({ ":status": 502 });
      stream.destroy();
    });
    stream.on("error", () => request.destroy());
    stream.on("close", () => request.destroy());
    stream.pipe(request);
    request.pipe(stream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const session of inbound) session.destroy();
        for (const session of upstreams.values()) session.destroy();
      }),
  };
}
