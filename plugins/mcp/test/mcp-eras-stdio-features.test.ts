// What a 2026-07-28 server over stdio may ask of the client and offer it, as in 2025-11-25: URL
// elicitation, sampling and roots (answered through input_required), progress, resource
// templates, completion and the resource and prompt list_changed.
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { type ElicitationRequest, textOf } from "@pseudoclaude/core";
import { McpManager } from "@pseudoclaude/plugin-mcp";
import { ScriptedProvider } from "@pseudoclaude/testing";
import { withEraAgent } from "./support/mcp-era-agent.js";
import { eventually, mcpAgent, serverPart, stdioFixture } from "./support/mcp-fixtures.js";

const TIMEOUT = { timeout: 60_000 };

describe("MCP eras over stdio", () => {
  it(
    "answers a 2026 server's URL elicitation, sampling and roots requests (input_required) and hands on its progress, as in 2025",
    TIMEOUT,
    async () => {
      const provider = new ScriptedProvider([{ text: "a short summary" }]);
      const approvals: string[] = [];
      const asked: ElicitationRequest[] = [];
      const workspace = await mkdtemp(path.join(os.tmpdir(), "pc-eras-roots-"));
      const agent = await mcpAgent(
        {
          modern: stdioFixture("modern", {
            env: { FIXTURE_MODERN_ONLY: "1" },
            sampling: true,
          }),
        },
        {
          workspace,
          provider,
          policy: { mode: "bypass" },
          approve: (request) => {
            approvals.push(request.tool.name);
            return "allow";
          },
          elicit: async (request) => {
            asked.push(request);
            return { action: "accept" };
          },
        },
      );
      try {
        assert.equal(serverPart(agent, "modern")?.protocolVersion, "2026-07-28");
        const visit = await agent.callTool("mcp__modern__open_page", {});
        assert.equal(textOf(visit.result.content), "visit: accept");
        assert.equal(asked[0]?.mode, "url");
        assert.equal(asked[0]?.url, "https://example.com/sign");
        const summary = await agent.callTool("mcp__modern__summarize", { text: "a long text" });
        assert.equal(summary.result.ok, true, JSON.stringify(summary.result));
        assert.equal(textOf(summary.result.content), "summary: a short summary");
        assert.deepEqual(approvals, ["mcp__modern__sampling"], "sampling asked for approval");
        assert.equal(provider.played, 1);
        const progress: number[] = [];
        const listener = (event: { progress: { progress: number } }) =>
          progress.push(event.progress.progress);
        agent.on("tool-progress", listener);
        const steps = await agent.callTool("mcp__modern__steps", {});
        agent.off("tool-progress", listener);
        assert.equal(textOf(steps.result.content), "3 steps");
        assert.deepEqual(progress, [1, 2, 3], "progress notifications reach tool-progress");
        const roots = await agent.callTool("mcp__modern__roots", {});
        assert.equal(textOf(roots.result.content), pathToFileURL(workspace).href);
      } finally {
        await agent.close();
        await rm(workspace, { recursive: true, force: true });
      }
    },
  );

  for (const protocol of ["auto", "2025-11-25"] as const)
    it(
      `resource templates, completion and the resource and prompt list_changed (protocol ${protocol})`,
      TIMEOUT,
      async () => {
        await withEraAgent({ m: stdioFixture("modern", { protocol }) }, async (agent) => {
          const era = protocol === "auto" ? "2026-07-28" : "2025-11-25";
          assert.equal(serverPart(agent, "m")?.protocolVersion, era);
          const manager = agent.resolve<McpManager>(McpManager);
          const signal = new AbortController().signal;
          const notices: string[] = [];
          manager.onServerNotice((server, notice) => notices.push(`${server} ${notice.kind}`));

          const templates = await manager.listResourceTemplates("m", undefined, signal);
          assert.deepEqual(
            templates.servers[0]?.resourceTemplates.map((template) => template.uriTemplate),
            ["memo://notes/{name}"],
          );
          const read = await agent.callTool("mcp__read_resource_template", {
            server: "m",
            uri_template: "memo://notes/{name}",
            arguments: { name: "alpha" },
          });
          assert.equal(read.result.ok, true, JSON.stringify(read.result.error));
          assert.deepEqual(read.result.content, [
            {
              type: "resource",
              resource: { uri: "memo://notes/alpha", mimeType: "text/plain", text: "note alpha" },
            },
          ]);

          const notes = await manager.complete(
            "m",
            {
              ref: { type: "ref/resource", uri: "memo://notes/{name}" },
              argument: { name: "name", value: "al" },
            },
            signal,
          );
          assert.deepEqual(notes.values, ["alpha", "alpine"]);
          const people = await manager.complete(
            "m",
            { ref: { type: "ref/prompt", name: "greet" }, argument: { name: "who", value: "A" } },
            signal,
          );
          assert.deepEqual(people.values, ["Ada", "Alan"]);

          await agent.callTool("mcp__m__add_lists", {});
          await eventually(
            () => notices.includes("m resources-changed") && notices.includes("m prompts-changed"),
            10_000,
            `resource and prompt list_changed (${notices.join(", ")})`,
          );
        });
      },
    );
});
