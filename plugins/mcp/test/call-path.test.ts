// The walk of one MCP tool call, from the model's answer to the server: the stack at the
// moment the request is written to the server's stdin (or its HTTP request is ended), read
// from a real agent, a real fixture server, both protocol eras and both transports. It guards
// the shape docs/architecture.md shows: at most 8 of our files, none entered twice, the
// registry entered once (its runner).
import assert from "node:assert/strict";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { describe, it } from "node:test";

// The packages load as bundles (dist/bundle): with source maps on before anything of ours
// loads, the stack names the TypeScript source file of every frame, bundled or not.
process.setSourceMapsEnabled(true);
const { ScriptedProvider } = await import("@pseudoclaude/testing");
const { FIXTURE_ERAS, fixture, mcpAgent, serverPart, stdioFixture } = await import(
  "./support/mcp-fixtures.js"
);
const { startHttpServer } = await import("@pseudoclaude/testing/system");

/** Our files on the stack when a `tools/call` request is written, innermost first. */
async function filesOnTheWayOut(
  era: { version: string; env: Record<string, string> },
  over: "stdio" | "http",
) {
  const provider = new ScriptedProvider([
    { tool_calls: [{ id: "c1", name: "mcp__fx__echo", arguments: { text: "hi" } }] },
    { text: "done" },
  ]);
  // Over stdio the hand-written fixture, well-behaved (no HOSTILE modes), speaks the era it is
  // told to; over HTTP the v2 server of both eras speaks the one the client asks for.
  const web =
    over === "http" ? await startHttpServer({ script: fixture("modern-http") }) : undefined;
  const stack = { text: "" };
  const limit = Error.stackTraceLimit;
  const write = net.Socket.prototype.write;
  const end = http.ClientRequest.prototype.end;
  try {
    const agent = await mcpAgent(
      {
        fx: web
          ? {
              type: "http",
              url: web.url("/mcp"),
              ...(era.version === "2025-11-25" ? { protocol: "2025-11-25" } : {}),
            }
          : stdioFixture("hostile", { env: era.env }),
      },
      { provider, approve: () => "allow" },
    );
    assert.equal(serverPart(agent, "fx")?.protocolVersion, era.version);
    Error.stackTraceLimit = 100;
    // The first sight of the request: over HTTP its socket is written later, off the call's stack.
    const seen = (chunk: unknown) => {
      if (!stack.text && typeof chunk === "string" && chunk.includes('"tools/call"'))
        stack.text = new Error().stack ?? "";
    };
    net.Socket.prototype.write = function (this: net.Socket, chunk: unknown, ...rest: unknown[]) {
      seen(chunk);
      return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
    } as typeof write;
    http.ClientRequest.prototype.end = function (this: http.ClientRequest, ...args: unknown[]) {
      seen(args[0]);
      return (end as (...args: unknown[]) => http.ClientRequest).apply(this, args);
    } as typeof end;
    try {
      const result = await agent.run("echo hi");
      assert.equal(result.toolCalls[0]?.result.ok, true, JSON.stringify(result.toolCalls[0]));
    } finally {
      net.Socket.prototype.write = write;
      http.ClientRequest.prototype.end = end;
      Error.stackTraceLimit = limit;
      await agent.close();
    }
  } finally {
    await web?.stop();
  }
  const files: string[] = [];
  for (const match of stack.text.matchAll(/\((?:file:\/\/)?([^():]+\.[jt]s):\d+:\d+\)/g)) {
    const file = match[1]!;
    const ours = file.match(/\/((?:packages|plugins)\/[^/]+)\/(?:dist\/)?src\/(.+)\.[jt]s$/);
    if (!ours) continue;
    files.push(path.posix.join(ours[1]!, "src", `${ours[2]}.ts`));
    if (ours[2] === "agent/run-loop") break;
  }
  return files;
}

/** The files in stack order, one entry per visit (a file left and entered again counts twice). */
function visits(files: readonly string[]): string[] {
  return files.filter((file, index) => index === 0 || files[index - 1] !== file);
}

describe("the call path of one MCP tool call", () => {
  for (const over of ["stdio", "http"] as const)
    for (const era of FIXTURE_ERAS) {
      it(`goes from the model's answer to the server in at most 8 files, none twice (${era.version}, ${over})`, async () => {
        const walk = visits(await filesOnTheWayOut(era, over));
        assert.equal(walk.at(-1), "packages/core/src/agent/run-loop.ts", walk.join("\n"));
        const transport = over === "stdio" ? "stdio-transport.ts" : "http-transport.ts";
        assert.equal(walk[0], `plugins/mcp/src/wire/${transport}`, walk.join("\n"));
        assert.equal(
          new Set(walk).size,
          walk.length,
          `a file is entered twice:\n${walk.join("\n")}`,
        );
        assert.ok(walk.length <= 8, `${walk.length} stops:\n${walk.join("\n")}`);
        const registry = walk.filter((file) => file.startsWith("packages/core/src/registry/"));
        assert.deepEqual(registry, ["packages/core/src/registry/tool-runner.ts"]);
        assert.ok(walk.includes("plugins/mcp/src/session/client-session.ts"), walk.join("\n"));
      });
    }
});
