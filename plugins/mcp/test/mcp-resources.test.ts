import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { after, before, describe, it } from "node:test";
import { type Agent, ConfigError, textOf } from "@pseudoclaude/core";
import { McpManager } from "@pseudoclaude/plugin-mcp";
import { eventually, mcpAgent, scratch, stdioFixture } from "./support/mcp-fixtures.js";

const everything = createRequire(import.meta.url).resolve(
  "@modelcontextprotocol/server-everything/dist/index.js",
);

describe("MCP resources and prompts", () => {
  let agent: Agent;
  before(async () => {
    agent = await mcpAgent(
      {
        e: { type: "stdio", command: process.execPath, args: [everything, "stdio"] },
        // No resources or prompts here: the generic tools must not ask it.
        b: stdioFixture("behaviours"),
      },
      { policy: { mode: "plan" } },
    );
    await eventually(
      () => agent.registry.get("mcp__list_resources") !== undefined,
      10_000,
      "resource tools",
    );
  });
  after(() => agent.close());

  it("offers six generic read-only tools per agent, not per server, even in plan mode", () => {
    const generic = agent.offeredTools().filter((tool) => /^mcp__(list|read|get)_/.test(tool.name));
    assert.deepEqual(generic.map((tool) => tool.name).sort(), [
      "mcp__get_prompt",
      "mcp__list_prompts",
      "mcp__list_resource_templates",
      "mcp__list_resources",
      "mcp__read_resource",
      "mcp__read_resource_template",
    ]);
    assert.ok(generic.every((tool) => tool.safety === "read_only"));
  });

  it("lists and reads a server's resources through the model's tools", async () => {
    const listing = await agent.callTool("mcp__list_resources", { server: "e" });
    assert.equal(listing.result.ok, true);
    const structured = listing.result.structured as {
      servers: Array<{ server: string; resources: Array<{ uri: string }> }>;
    };
    assert.equal(structured.servers[0]!.server, "e");
    const first = structured.servers[0]!.resources[0]!;
    assert.ok(first.uri, "a resource with a URI");
    const read = await agent.callTool("mcp__read_resource", { server: "e", uri: first.uri });
    assert.equal(read.result.ok, true, JSON.stringify(read.result));
    assert.equal(read.result.content[0]?.type, "resource");
    assert.equal((read.result.content[0] as { resource: { uri: string } }).resource.uri, first.uri);
  });

  it("lists resources of every capable server when none is named", async () => {
    const listing = await agent.callTool("mcp__list_resources", {});
    const servers = (
      listing.result.structured as { servers: Array<{ server: string }> }
    ).servers.map((s) => s.server);
    assert.deepEqual(servers, ["e"]);
  });

  it("gets a prompt with arguments", async () => {
    const prompts = await agent.callTool("mcp__list_prompts", { server: "e" });
    assert.match(textOf(prompts.result.content), /simple-prompt/);
    const prompt = await agent.callTool("mcp__get_prompt", {
      server: "e",
      name: "args-prompt",
      arguments: { city: "Lisbon" },
    });
    assert.equal(prompt.result.ok, true, JSON.stringify(prompt.result));
    assert.match(textOf(prompt.result.content), /Lisbon/);
  });

  it("lists the reference server's resource templates and reads one filled in", async () => {
    const listed = await agent.callTool("mcp__list_resource_templates", { server: "e" });
    const templates = (
      listed.result.structured as {
        servers: Array<{ resourceTemplates: Array<{ uriTemplate: string }> }>;
      }
    ).servers[0]!.resourceTemplates.map((template) => template.uriTemplate);
    assert.ok(templates.includes("demo://resource/dynamic/text/{resourceId}"), templates.join());
    const read = await agent.callTool("mcp__read_resource_template", {
      server: "e",
      uri_template: "demo://resource/dynamic/text/{resourceId}",
      arguments: { resourceId: "7" },
    });
    assert.equal(read.result.ok, true, JSON.stringify(read.result.error));
    const block = read.result.content[0] as {
      type: string;
      resource: { uri: string; text?: string };
    };
    assert.equal(block.resource.uri, "demo://resource/dynamic/text/7");
    assert.match(block.resource.text ?? "", /7/);
  });

  it("subscribes to a resource and hears of its updates (2025 era, server-everything)", async () => {
    // Its own agent: the toggle is a tool with side effects, which plan mode refuses.
    const agent = await mcpAgent(
      { e: { type: "stdio", command: process.execPath, args: [everything, "stdio"] } },
      { policy: { mode: "bypass" } },
    );
    const manager = agent.resolve<McpManager>(McpManager);
    const signal = new AbortController().signal;
    const { servers } = await manager.listResources("e", undefined, signal);
    const uri = String(servers[0]!.resources[0]!.uri);
    const updated: string[] = [];
    const listening = manager.onServerNotice((server, notice) => {
      if (notice.kind === "resource-updated") updated.push(`${server} ${notice.uri}`);
    });
    try {
      await manager.subscribeResource("e", uri, signal);
      // The server sends updates of what is subscribed once this is on (and every 5 s after).
      const toggled = await agent.callTool("mcp__e__toggle-subscriber-updates", {});
      assert.equal(toggled.result.ok, true, JSON.stringify(toggled.result.error));
      await eventually(() => updated.includes(`e ${uri}`), 8_000, `an update of ${uri}`);
      await manager.unsubscribeResource("e", uri, signal);
    } finally {
      listening.dispose();
      await agent.close();
    }
  });

  it("subscribes in 2026-07-28 through subscriptions/listen: updates of what is subscribed, none after unsubscribing", async () => {
    const files = await scratch();
    const agent = await mcpAgent(
      { w: stdioFixture("resource-watch", { env: { FIXTURE_LOG: files.log } }) },
      { policy: { mode: "bypass" } },
    );
    const manager = agent.resolve<McpManager>(McpManager);
    const signal = new AbortController().signal;
    const updated: string[] = [];
    const listening = manager.onServerNotice((server, notice) => {
      if (notice.kind === "resource-updated") updated.push(`${server} ${notice.uri}`);
    });
    try {
      assert.equal(manager.servers()[0]?.protocolVersion, "2026-07-28");
      await manager.subscribeResource("w", "memo://a", signal);
      await agent.callTool("mcp__w__touch", { uri: "memo://a" });
      await agent.callTool("mcp__w__touch", { uri: "memo://b" });
      await eventually(() => updated.includes("w memo://a"), 5_000, "the update of memo://a");
      assert.deepEqual(updated, ["w memo://a"], "memo://b is not subscribed");
      // A second subscription: one listen with both, the first closed after it opened.
      await manager.subscribeResource("w", "memo://b", signal);
      await agent.callTool("mcp__w__touch", { uri: "memo://b" });
      await eventually(() => updated.includes("w memo://b"), 5_000, "the update of memo://b");
      const log = await files.lines();
      assert.ok(
        log.some((line) => /^listen \S+ memo:\/\/a,memo:\/\/b$/.test(line)),
        log.join("\n"),
      );
      await manager.unsubscribeResource("w", "memo://a", signal);
      await manager.unsubscribeResource("w", "memo://b", signal);
      updated.length = 0;
      const seen = (await files.lines()).length;
      await agent.callTool("mcp__w__touch", { uri: "memo://a" });
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.deepEqual(updated, [], "nothing after unsubscribing");
      const since = (await files.lines()).slice(seen);
      assert.ok(
        !since.some((line) => line.startsWith("updated")),
        `the server sent none: ${since}`,
      );
    } finally {
      listening.dispose();
      await agent.close();
      await files.cleanup();
    }
  });

  it("answers an unknown server with a clear error", async () => {
    const read = await agent.callTool("mcp__read_resource", { server: "nope", uri: "x://y" });
    assert.equal(read.result.ok, false);
    assert.match(read.result.error!.message, /No MCP server named "nope" \(configured: e, b\)/);
  });

  it("gives code the same through the plugin's API", async () => {
    const manager = agent.resolve<McpManager>(McpManager);
    const signal = new AbortController().signal;
    const { servers } = await manager.listResources("e", undefined, signal);
    assert.ok(servers[0]!.resources.length > 0);
    assert.deepEqual(
      manager.servers().map((server) => [server.name, server.state, server.transport]),
      [
        ["e", "ready", "stdio"],
        ["b", "ready", "stdio"],
      ],
    );
    assert.equal(manager.totals().configured, 2);
    assert.equal(manager.totals().connected, 2);
  });

  it("fails loudly, naming the token, when a service was never registered", () => {
    assert.throws(
      () => agent.resolve(Symbol.for("nobody:Registered")),
      (error: unknown) => error instanceof ConfigError && /nobody:Registered/.test(error.message),
    );
  });
});
