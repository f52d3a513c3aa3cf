// The walk of one MCP tool call, from the model's answer to the server: the stack at the
// moment the request is written to the server's stdin, read from a real agent, a real
// fixture server and both protocol eras. It guards the shape docs/architecture.md shows: at
// most 8 of our files, none entered twice, the registry entered once (its runner).
import assert from "node:assert/strict";
import net from "node:net";
import path from "node:path";
import { describe, it } from "node:test";

// The packages load as bundles (dist/bundle): with source maps on before anything of ours
// loads, the stack names the TypeScript source file of every frame, bundled or not.
process.setSourceMapsEnabled(true);
const { ScriptedProvider } = await import("@pseudoclaude/testing");
const { FIXTURE_ERAS, mcpAgent, serverPart, stdioFixture } = await import(
  "./support/mcp-fixtures.js"
);

/** Our files on the stack when a `tools/call` request is written, innermost first. */
async function filesOnTheWayOut(era: { version: string; env: Record<string, string> }) {
  const provider = new ScriptedProvider([
    { tool_calls: [{ id: "c1", name: "mcp__fx__echo", arguments: { text: "hi" } }] },
    { text: "done" },
  ]);
  // The hand-written fixture, well-behaved (no HOSTILE modes): it speaks the era it is told to.
  const agent = await mcpAgent(
    { fx: stdioFixture("hostile", { env: era.env }) },
    { provider, approve: () => "allow" },
  );
  assert.equal(serverPart(agent, "fx")?.protocolVersion, era.version);
  const limit = Error.stackTraceLimit;
  const write = net.Socket.prototype.write;
  let stack = "";
  Error.stackTraceLimit = 100;
  net.Socket.prototype.write = function (this: net.Socket, chunk: unknown, ...rest: unknown[]) {
    if (typeof chunk === "string" && chunk.includes('"tools/call"'))
      stack = new Error().stack ?? "";
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as typeof write;
  try {
    const result = await agent.run("echo hi");
    assert.equal(result.toolCalls[0]?.result.ok, true, JSON.stringify(result.toolCalls[0]));
  } finally {
    net.Socket.prototype.write = write;
    Error.stackTraceLimit = limit;
    await agent.close();
  }
  const files: string[] = [];
  for (const match of stack.matchAll(/\((?:file:\/\/)?([^():]+\.[jt]s):\d+:\d+\)/g)) {
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
  for (const era of FIXTURE_ERAS) {
    it(`goes from the model's answer to the server in at most 8 files, none twice (${era.version})`, async () => {
      const walk = visits(await filesOnTheWayOut(era));
      assert.equal(walk.at(-1), "packages/core/src/agent/run-loop.ts", walk.join("\n"));
      assert.equal(walk[0], "plugins/mcp/src/wire/stdio-transport.ts", walk.join("\n"));
      assert.equal(new Set(walk).size, walk.length, `a file is entered twice:\n${walk.join("\n")}`);
      assert.ok(walk.length <= 8, `${walk.length} stops:\n${walk.join("\n")}`);
      const registry = walk.filter((file) => file.startsWith("packages/core/src/registry/"));
      assert.deepEqual(registry, ["packages/core/src/registry/tool-runner.ts"]);
      assert.ok(walk.includes("plugins/mcp/src/session/client-session.ts"), walk.join("\n"));
    });
  }
});
