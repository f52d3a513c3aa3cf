import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type Agent, createAgent, defineTool, LoadedConfig } from "@pseudoclaude/core";
import { z } from "zod";
import {
  CALL_TOOL_NAME,
  ExposedToolSearch,
  GatewaySettingsToken,
  GatewayTools,
  gatewayPlugin,
  loadGatewaySettings,
  SEARCH_MODE_TOOLS,
  SEARCH_TOOLS_NAME,
} from "../src/index.js";
import { callArguments, searchArguments, searchToolsResult } from "../src/search-mode-tools.js";

const tool = (name: string, description: string, input = z.object({}), source?: string) =>
  defineTool({
    name,
    description,
    input,
    safety: "side_effect",
    ...(source ? { source } : {}),
    execute: async () => name,
  });

describe("ExposedToolSearch", () => {
  let agent: Agent;
  let tools: GatewayTools;
  let search: ExposedToolSearch;
  before(async () => {
    agent = await createAgent({
      config: false,
      tools: [
        tool(
          "mcp__github__create_issue",
          "Open a new issue in a repository.",
          z.object({ title: z.string().describe("The issue's title") }),
        ),
        tool("mcp__github__delete_repo", "Delete a repository for good."),
        tool("mcp__github__list_issues", "List the issues of a repository."),
        tool("send_email", "Send an email message."),
      ],
      policy: { deny: ["send_email"] },
      plugins: [
        gatewayPlugin({
          exposeMode: "search",
          expose: { deny: ["mcp__github__delete_*"] },
          rename: { "mcp__github__*": "gh_*" },
          audit: false,
        }),
      ],
    });
    tools = new GatewayTools(agent, agent.resolve(GatewaySettingsToken));
    search = new ExposedToolSearch(tools);
  });
  after(async () => {
    tools?.close();
    await agent?.close();
  });

  it("finds exported tools by what they do, under the names clients call them by", async () => {
    const { found, searched } = await search.search("create an issue", 5);
    assert.equal(searched, 2, "the unexposed and the denied tool are not searched");
    assert.equal(found[0]?.name, "gh_create_issue");
    assert.equal(found[0]?.definition.name, "mcp__github__create_issue");
    // A name given exactly comes first (the words of the name may find others after it).
    const exact = await search.search("select:gh_list_issues", 5);
    assert.equal(exact.found[0]?.name, "gh_list_issues");
  });

  it("never finds a tool the policy denies or gateway.expose hides, even by its name", async () => {
    for (const query of [
      "send email",
      "select:send_email",
      "delete repository",
      "select:mcp__github__delete_repo",
      "select:gh_delete_repo",
    ]) {
      const { found } = await search.search(query, 10);
      const names = found.map((match) => match.definition.name);
      assert.ok(!names.includes("send_email"), `${query}: ${names.join(", ")}`);
      assert.ok(!names.includes("mcp__github__delete_repo"), `${query}: ${names.join(", ")}`);
    }
  });

  it("follows the registry: a tool that joins is found, one that leaves is not", async () => {
    await search.search("calendar", 5);
    agent.registry.applyChange("calendar", {
      kind: "full",
      tools: [tool("calendar_events", "The events in a calendar.", z.object({}), "calendar")],
    });
    const joined = await search.search("calendar events", 5);
    assert.equal(joined.found[0]?.name, "calendar_events");
    assert.equal(joined.searched, 3);
    agent.registry.applyChange("calendar", { kind: "full", tools: [] });
    const left = await search.search("calendar events", 5);
    assert.deepEqual(left.found, []);
  });
});

describe("search mode's two tools", () => {
  it("are search_tools (read-only) and call_tool (which may do anything a tool may)", () => {
    assert.deepEqual(
      SEARCH_MODE_TOOLS.map((tool) => [tool.name, tool.annotations?.readOnlyHint]),
      [
        [SEARCH_TOOLS_NAME, true],
        [CALL_TOOL_NAME, false],
      ],
    );
    assert.equal(SEARCH_MODE_TOOLS[1]?.annotations?.destructiveHint, true);
  });

  it("check their arguments, and say what is wrong as the tool's error", () => {
    assert.deepEqual(searchArguments({ query: " issues " }), {
      kind: "search",
      query: "issues",
      limit: 5,
    });
    for (const wrong of [{}, { query: "" }, { query: "x", limit: 0 }, { query: "x", extra: 1 }]) {
      const checked = searchArguments(wrong);
      assert.equal(checked.kind, "invalid", JSON.stringify(wrong));
      if (checked.kind === "invalid") assert.equal(checked.result.isError, true);
    }
    assert.deepEqual(callArguments({ name: "gh_list_issues" }), {
      kind: "call",
      name: "gh_list_issues",
      arguments: undefined,
    });
    for (const wrong of [{}, { name: "x", arguments: [] }, { name: "x", title: "inline" }])
      assert.equal(callArguments(wrong).kind, "invalid", JSON.stringify(wrong));
  });

  it("answer a search as text and as the tools/list entries of what it found", () => {
    const definition = {
      name: "mcp__github__create_issue",
      description: "Open a new issue.",
      inputSchema: { type: "object", properties: { title: { type: "string" } } },
      safety: "side_effect",
      source: "mcp:github",
    } as const;
    const result = searchToolsResult("issue", {
      found: [{ name: "gh_create_issue", definition }],
      searched: 3,
    });
    const structured = result.structuredContent as { tools: Array<Record<string, unknown>> };
    assert.equal(structured.tools[0]?.name, "gh_create_issue");
    assert.deepEqual(structured.tools[0]?.inputSchema, definition.inputSchema);
    const text = (result.content[0] as { text: string }).text;
    assert.match(text, /gh_create_issue: Open a new issue\./);
    assert.match(text, /"title"/);
    const none = searchToolsResult("weather", { found: [], searched: 3 });
    assert.deepEqual(none.structuredContent, { tools: [] });
    assert.match((none.content[0] as { text: string }).text, /No tool matches "weather" among 3/);
  });
});

describe("gateway.expose_mode", () => {
  it("is all unless a layer or code says search; the workspace may choose it", () => {
    const read = (texts: Partial<Record<"user" | "project", string>>) =>
      loadGatewaySettings(LoadedConfig.fromTexts(texts)).settings.exposeMode;
    assert.equal(read({}), "all");
    assert.equal(read({ user: "gateway:\n  expose_mode: search\n" }), "search");
    assert.equal(
      read({
        user: "gateway:\n  expose_mode: search\n",
        project: "gateway:\n  expose_mode: all\n",
      }),
      "all",
    );
    const coded = loadGatewaySettings(LoadedConfig.fromTexts({}), { exposeMode: "search" });
    assert.equal(coded.settings.exposeMode, "search");
  });

  it("a value it does not know is an error at its line", () => {
    const { diagnostics } = loadGatewaySettings(
      LoadedConfig.fromTexts({ user: "gateway:\n  audit: false\n  expose_mode: searching\n" }),
    );
    assert.equal(diagnostics.length, 1);
    assert.equal(diagnostics[0]?.severity, "error");
    assert.equal(diagnostics[0]?.line, 3);
    assert.match(diagnostics[0]?.message ?? "", /gateway\.expose_mode: .*"all".*"search"/);
  });
});
