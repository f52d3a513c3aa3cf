// Code mode with a wide tool set: deferred tools are not declared in the code tool's
// description (it stays small), and a program finds one with tool_search, then calls it by name.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type Agent, createAgent } from "@pseudoclaude/core";
import { CODE_TOOL_NAME, codeMode } from "@pseudoclaude/plugin-code-mode";
import { mcp } from "@pseudoclaude/plugin-mcp";
import { ScriptedProvider } from "@pseudoclaude/testing";
import { stdioFixture } from "#mcp-test/mcp-fixtures.js";

const PROGRAM = `
const found = await tools.tool_search({ query: "list calendar events" });
const events = await callTool("mcp__wide__calendar_list_event", { limit: 2 });
return { found: typeof found === "string" && found.includes("mcp__wide__calendar_list_event"), events };`;

describe("code mode with tool search", () => {
  let agent: Agent;
  before(async () => {
    agent = await createAgent({
      config: false,
      provider: new ScriptedProvider([
        { tool_calls: [{ id: "p1", name: CODE_TOOL_NAME, arguments: { code: PROGRAM } }] },
        { text: "done" },
      ]),
      policy: { allow: ["mcp__wide__calendar_*"] },
      toolSearch: "auto",
      plugins: [mcp({ servers: { wide: stdioFixture("wide") } }), codeMode()],
    });
  });
  after(() => agent?.close());

  it("declares no deferred tool, and a program searches, then calls what it found", async () => {
    const offer = agent.toolOffer();
    assert.ok(offer.deferred.length > 100, "the wide server's tools are deferred");
    // What a request carries: the code tool declares the tools sent with it, not the deferred.
    const description = offer.sent.find((tool) => tool.name === CODE_TOOL_NAME)?.description ?? "";
    assert.match(description, /tool_search\(input: /);
    assert.doesNotMatch(description, /calendar_list_event/);
    assert.ok(description.length < 8_000, `a small description: ${description.length}`);
    const result = await agent.run("list my events");
    const program = result.toolCalls.find((call) => call.name === CODE_TOOL_NAME);
    assert.equal(program?.result.ok, true, JSON.stringify(program?.result));
    const value = program?.result.structured as { found: boolean; events: unknown };
    assert.equal(value.found, true);
    assert.match(JSON.stringify(value.events), /calendar_list_event/);
  });
});
