// The MCP plugin over real Streamable HTTP against server-everything: discovery, tool results of
// every content kind, progress, and the session ended on close.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type Agent, type ContentBlock, textOf } from "@pseudoclaude/core";
import { type ToolProgress } from "@pseudoclaude/core/plugin";
import { type HttpServerProcess, startHttpServer } from "@pseudoclaude/testing/system";
import { eventually, mcpAgent } from "./support/mcp-fixtures.js";
import { sourceStatus } from "./support/mcp-source-status.js";
import { EVERYTHING } from "./support/reference-server-paths.js";

function blocksOf<T extends ContentBlock["type"]>(content: ContentBlock[], type: T) {
  return content.filter(
    (block): block is Extract<ContentBlock, { type: T }> => block.type === type,
  );
}

describe("MCP over Streamable HTTP against server-everything", () => {
  let server: HttpServerProcess;
  let agent: Agent;

  before(async () => {
    server = await startHttpServer({ script: EVERYTHING, args: ["streamableHttp"] });
    agent = await mcpAgent(
      { everything: { type: "http", url: server.url("/mcp") } },
      { policy: { mode: "bypass" }, strict: true },
    );
  });

  after(async () => {
    await agent?.close();
    await server?.stop();
  });

  it("discovers the server's tools as mcp__everything__* from source mcp:everything", async () => {
    const expected = [
      "mcp__everything__echo",
      "mcp__everything__get-tiny-image",
      "mcp__everything__get-structured-content",
      "mcp__everything__get-resource-links",
      "mcp__everything__trigger-long-running-operation",
    ];
    for (const name of expected) {
      const tool = agent.registry.get(name);
      assert.ok(tool, `${name} is registered`);
      assert.equal(tool.definition.source, "mcp:everything");
      assert.equal(tool.definition.meta?.remote_name, name.replace("mcp__everything__", ""));
    }
    // The tools it adds after initialization (list_changed) arrive too.
    await eventually(
      () => agent.registry.get("mcp__everything__get-roots-list") !== undefined,
      5_000,
      "the conditional tool get-roots-list",
    );
    const status = sourceStatus(agent, "everything");
    assert.equal(status.state, "ready");
    assert.match(status.parts?.[0]?.message ?? "", /protocol 2025-11-25, http\)/);
  });

  it("calls echo and returns its text", async () => {
    const { decision, result } = await agent.callTool("mcp__everything__echo", {
      message: "hello over http",
    });
    assert.equal(decision.verdict, "allow");
    assert.equal(result.ok, true, JSON.stringify(result.error));
    assert.equal(textOf(result.content), "Echo: hello over http");
    assert.equal(result.metadata.server, "everything");
    assert.equal(result.metadata.remote_tool, "echo");
  });

  it("returns get-tiny-image's picture as an image block of PNG data", async () => {
    const { result } = await agent.callTool("mcp__everything__get-tiny-image", {});
    assert.equal(result.ok, true, JSON.stringify(result.error));
    const images = blocksOf(result.content, "image");
    assert.equal(images.length, 1);
    const image = images[0]!;
    assert.equal(image.mimeType, "image/png");
    const bytes = Buffer.from(image.data, "base64");
    assert.ok(bytes.length > 100, "real image data");
    assert.deepEqual([...bytes.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47], "PNG signature");
    // The text around the image is kept, in order.
    assert.deepEqual(
      result.content.map((block) => block.type),
      ["text", "image", "text"],
    );
  });

  it("keeps get-structured-content's structured value beside its text", async () => {
    const { result } = await agent.callTool("mcp__everything__get-structured-content", {
      location: "New York",
    });
    assert.equal(result.ok, true, JSON.stringify(result.error));
    const expected = { temperature: 33, conditions: "Cloudy", humidity: 82 };
    assert.deepEqual(result.structured, expected);
    assert.deepEqual(JSON.parse(textOf(result.content)), expected);
  });

  it("returns get-resource-links' links as resource_link blocks", async () => {
    const { result } = await agent.callTool("mcp__everything__get-resource-links", { count: 2 });
    assert.equal(result.ok, true, JSON.stringify(result.error));
    const links = blocksOf(result.content, "resource_link");
    assert.equal(links.length, 2);
    for (const link of links) {
      assert.match(link.uri, /^demo:\/\/resource\//);
      assert.ok(link.name, "a link keeps its name");
      assert.ok(link.mimeType, "a link keeps its MIME type");
    }
  });

  it("reports a long-running operation's progress to tool-progress listeners as it runs", async () => {
    const seen: Array<{ turn: number; name: string; progress: ToolProgress; at: number }> = [];
    const listener = (event: { turn: number; call: { name: string }; progress: ToolProgress }) =>
      seen.push({ ...event, name: event.call.name, at: Date.now() });
    agent.on("tool-progress", listener);
    try {
      const { result } = await agent.callTool("mcp__everything__trigger-long-running-operation", {
        duration: 0.3,
        steps: 3,
      });
      const finished = Date.now();
      assert.equal(result.ok, true, JSON.stringify(result.error));
      assert.match(textOf(result.content), /Steps: 3/);
      assert.deepEqual(
        seen.map((event) => [
          event.turn,
          event.name,
          event.progress.progress,
          event.progress.total,
        ]),
        [
          [0, "mcp__everything__trigger-long-running-operation", 1, 3],
          [0, "mcp__everything__trigger-long-running-operation", 2, 3],
          [0, "mcp__everything__trigger-long-running-operation", 3, 3],
        ],
      );
      // As it runs: the server reports a step every 100 ms and answers at 300 ms, so the first
      // step arrives long before the answer; progress held back and sent with the answer
      // would arrive with it.
      const ahead = finished - (seen[0]?.at ?? finished);
      assert.ok(ahead >= 80, `the first step arrived ${ahead} ms before the answer`);
    } finally {
      agent.off("tool-progress", listener);
    }
  });

  it("ends its HTTP session on close and leaves the server running for the next client", async () => {
    await agent.close();
    await eventually(
      () => /Received session termination request/.test(server.stdout()),
      5_000,
      "the session's DELETE",
    );
    assert.equal(server.running(), true);
    const next = await mcpAgent(
      { everything: { type: "http", url: server.url("/mcp") } },
      { policy: { mode: "bypass" }, strict: true },
    );
    try {
      const { result } = await next.callTool("mcp__everything__echo", { message: "again" });
      assert.equal(textOf(result.content), "Echo: again");
    } finally {
      await next.close();
    }
    assert.equal(server.running(), true);
  });
});
