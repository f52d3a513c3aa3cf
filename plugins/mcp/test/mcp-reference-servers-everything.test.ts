// End to end over real stdio: the official server-everything, through createAgent + the MCP
// plugin, as a user composes it; one agent and one server serve every test here.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { type Agent, textOf } from "@pseudoclaude/core";
import {
  EVERYTHING,
  everything,
  type Harness,
  recordProgress,
  startAgent,
  statsOf,
  TIMEOUT,
  toolsOf,
  untilConditionalToolsListed,
} from "./support/mcp-reference-servers.js";

describe("server-everything over stdio", () => {
  let harness: Harness;
  let agent: Agent;

  before(async () => {
    // Calls are allowed by a rule so the tests see the server, not the approval path.
    harness = await startAgent(everything(), { policy: { allow: ["mcp__everything__*"] } });
    agent = harness.agent;
    await untilConditionalToolsListed(agent);
  });

  after(async () => {
    await harness?.dispose();
  });

  it(
    "lists every tool as mcp__everything__<name>, keeps both names, and marks all of them side_effect",
    TIMEOUT,
    () => {
      const tools = toolsOf(agent, "everything");
      const names = tools.map((tool) => tool.name);
      for (const expected of [
        "echo",
        "get-tiny-image",
        "get-resource-links",
        "get-resource-reference",
        "get-structured-content",
        "trigger-long-running-operation",
        "get-roots-list",
      ]) {
        assert.ok(
          names.includes(`mcp__everything__${expected}`),
          `${expected} is listed: ${names}`,
        );
      }
      for (const tool of tools) {
        assert.match(tool.name, /^mcp__everything__[A-Za-z0-9_-]+$/);
        assert.equal(tool.meta?.remote_name, tool.name.slice("mcp__everything__".length));
        assert.equal(tool.meta?.server, "everything");
        // The server's readOnlyHint is kept as data but not trusted.
        assert.equal(tool.safety, "side_effect", `${tool.name} is side_effect by default`);
      }
      const echo = agent.registry.get("mcp__everything__echo")!.definition;
      assert.equal(echo.annotations?.readOnlyHint, true, "the hint is still visible");
      const structured = agent.registry.get("mcp__everything__get-structured-content")!.definition;
      assert.equal((structured.meta?.output_schema as { type?: string })?.type, "object");
    },
  );

  it("calls echo over stdio and reports the local and remote names", TIMEOUT, async () => {
    const outcome = await agent.callTool("mcp__everything__echo", { message: "hello stdio" });
    assert.equal(outcome.decision.verdict, "allow");
    assert.equal(outcome.result.ok, true, JSON.stringify(outcome.result));
    assert.deepEqual(outcome.result.content, [{ type: "text", text: "Echo: hello stdio" }]);
    assert.equal(outcome.result.metadata.server, "everything");
    assert.equal(outcome.result.metadata.remote_tool, "echo");
    assert.equal(outcome.result.metadata.tool, "mcp__everything__echo");
    assert.equal(typeof outcome.result.metadata.timeout_ms, "number");
  });

  it("carries an image block from get-tiny-image as a base64 PNG", TIMEOUT, async () => {
    const { result } = await agent.callTool("mcp__everything__get-tiny-image", {});
    assert.equal(result.ok, true, JSON.stringify(result));
    const image = result.content.find((block) => block.type === "image");
    assert.ok(image && image.type === "image", "an image block");
    assert.equal(image.mimeType, "image/png");
    assert.equal(
      Buffer.from(image.data, "base64").subarray(1, 4).toString("latin1"),
      "PNG",
      "the data decodes to a PNG",
    );
  });

  it("carries resource_link blocks from get-resource-links", TIMEOUT, async () => {
    const { result } = await agent.callTool("mcp__everything__get-resource-links", { count: 3 });
    assert.equal(result.ok, true, JSON.stringify(result));
    const links = result.content.filter((block) => block.type === "resource_link");
    assert.equal(links.length, 3);
    for (const link of links) {
      assert.ok(link.type === "resource_link");
      assert.match(link.uri, /^demo:\/\/resource\//);
      assert.equal(typeof link.name, "string");
    }
  });

  it("carries embedded text and blob resources from get-resource-reference", TIMEOUT, async () => {
    const text = await agent.callTool("mcp__everything__get-resource-reference", {
      resourceType: "Text",
      resourceId: 1,
    });
    const embeddedText = text.result.content.find((block) => block.type === "resource");
    assert.ok(embeddedText && embeddedText.type === "resource", JSON.stringify(text.result));
    assert.equal(embeddedText.resource.uri, "demo://resource/dynamic/text/1");
    assert.match(embeddedText.resource.text ?? "", /Resource 1/);

    const blob = await agent.callTool("mcp__everything__get-resource-reference", {
      resourceType: "Blob",
      resourceId: 2,
    });
    const embeddedBlob = blob.result.content.find((block) => block.type === "resource");
    assert.ok(embeddedBlob && embeddedBlob.type === "resource", JSON.stringify(blob.result));
    assert.equal(embeddedBlob.resource.uri, "demo://resource/dynamic/blob/2");
    assert.match(Buffer.from(embeddedBlob.resource.blob ?? "", "base64").toString(), /Resource 2/);
  });

  it("keeps structuredContent next to the text mirror", TIMEOUT, async () => {
    const { result } = await agent.callTool("mcp__everything__get-structured-content", {
      location: "Chicago",
    });
    assert.equal(result.ok, true, JSON.stringify(result));
    assert.deepEqual(result.structured, {
      temperature: 36,
      conditions: "Light rain / drizzle",
      humidity: 82,
    });
    assert.deepEqual(JSON.parse(textOf(result.content)), result.structured);
  });

  it("turns notifications/progress into tool-progress events of that call", TIMEOUT, async () => {
    const progress = recordProgress(agent, "mcp__everything__trigger-long-running-operation");
    const { result } = await agent
      .callTool("mcp__everything__trigger-long-running-operation", { duration: 0.4, steps: 4 })
      .finally(progress.stop);
    assert.equal(result.ok, true, JSON.stringify(result));
    assert.match(textOf(result.content), /Steps: 4/);
    assert.equal(progress.events().length, 1, "one call reported progress");
    const events = progress.events()[0]!;
    // Only the tail can be lost (the race the next test covers), so what arrives is a prefix.
    assert.ok(events.length >= 2, `progress events: ${JSON.stringify(events)}`);
    assert.deepEqual(
      events.map((event) => event.progress),
      [1, 2, 3, 4].slice(0, events.length),
    );
    for (const event of events) assert.equal(event.total, 4);
  });

  it(
    "delivers the last progress notification even when it arrives together with the result",
    TIMEOUT,
    async () => {
      // server-everything sends its final progress right before the result; both often reach us
      // in one stdout chunk. The SDK 1.x client defers notification handlers by a microtask but
      // handles responses at once, so the response retires the progress handler first and the
      // last notification is dropped ("unknown token") - unless the transport hands messages
      // over one microtask apart. Eight calls make a lost notification all but certain to show.
      const progress = recordProgress(agent, "mcp__everything__trigger-long-running-operation");
      try {
        for (let call = 0; call < 8; call++) {
          const { result } = await agent.callTool(
            "mcp__everything__trigger-long-running-operation",
            {
              duration: 0.02,
              steps: 2,
            },
          );
          assert.equal(result.ok, true, JSON.stringify(result));
        }
      } finally {
        progress.stop();
      }
      assert.deepEqual(
        progress.calls(),
        Array.from({ length: 8 }, () => [1, 2]),
      );
    },
  );

  it("answers roots/list with the workspace as a file URI", TIMEOUT, async () => {
    const { result } = await agent.callTool("mcp__everything__get-roots-list", {});
    assert.equal(result.ok, true, JSON.stringify(result));
    const text = textOf(result.content);
    assert.match(text, /Current MCP Roots \(1 total\)/);
    assert.ok(
      text.includes(`URI: ${pathToFileURL(harness.workspace.root).href}`),
      `the workspace URI is the root: ${text}`,
    );
  });

  it(
    "offers no elicitation without an elicit callback, so the server leaves its elicitation tool out",
    TIMEOUT,
    () => {
      // The roots tool arrived with the same re-listing (untilConditionalToolsListed).
      assert.ok(agent.registry.get("mcp__everything__get-roots-list"), "roots are offered");
      assert.equal(agent.registry.get("mcp__everything__trigger-elicitation-request"), undefined);
    },
  );

  it(
    "puts the server's instructions into the system prompt, attributed to the server",
    TIMEOUT,
    () => {
      const instructions = readFileSync(
        path.join(path.dirname(EVERYTHING), "docs", "instructions.md"),
        "utf8",
      ).trim();
      const prompt = agent.systemPrompt();
      assert.ok(prompt.includes('Instructions from MCP server "everything"'), prompt.slice(0, 300));
      assert.ok(prompt.includes("mcp:everything"), "the source is named");
      assert.ok(prompt.includes(instructions), "the whole instructions text is there");
    },
  );

  it(
    "reports the server's counters (configured ... registered) in agent.sources()",
    TIMEOUT,
    () => {
      const status = statsOf(agent, "everything");
      const registered = toolsOf(agent, "everything").length;
      assert.equal(status.state, "ready");
      // Every tool but the elicitation one, which comes only to an agent that can elicit.
      assert.ok(registered >= 14, `registered ${registered}`);
      assert.deepEqual(status.stats, {
        configured: 1,
        connected: 1,
        discovered: registered,
        adapted: registered,
        filtered: 0,
        registered,
      });
      assert.match(status.parts?.[0]?.message ?? "", /mcp-servers\/everything .*stdio/);
    },
  );
});
