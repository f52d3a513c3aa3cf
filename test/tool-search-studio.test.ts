// Tool search through the studio's API, for an agent with a real MCP server over stdio that
// serves 200 tools: `/api/tools` gives each tool its state and the offer's summary; a run's
// events carry the search and, per turn, the tools sent and their tokens; what a search found
// is `found` afterwards.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Agent } from "@pseudoclaude/core";
import { ApprovalDesk, type Studio, startStudio } from "@pseudoclaude/studio";
import { ScriptedProvider } from "@pseudoclaude/testing";
import {
  describePids,
  markedProcesses,
  markerEnv,
  newMarker,
  stillRunningAfter,
} from "@pseudoclaude/testing/system";
import { eventually, mcpAgent, stdioFixture } from "#mcp-test/mcp-fixtures.js";

interface ToolInfo {
  name: string;
  source: string;
  offered: boolean;
  state: "loaded" | "deferred" | "found" | null;
}

interface ToolsAnswer {
  tools: ToolInfo[];
  toolSearch: {
    engine: string;
    reason: string;
    loaded: number;
    deferred: number;
    found: number;
    tokens: { sent: number; all: number };
  };
}

type RunEvent = { type: string } & Record<string, unknown>;

describe("tool search in the studio's API", () => {
  const marker = newMarker();
  let agent: Agent;
  let studio: Studio;
  const api = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
    const response = await fetch(`http://127.0.0.1:${studio.port}${path}`, {
      ...init,
      headers: { "x-studio-token": studio.token, ...(init.headers ?? {}) },
    });
    assert.ok(response.ok, `${path}: ${response.status} ${await response.clone().text()}`);
    return (await response.json()) as T;
  };

  before(async () => {
    const desk = new ApprovalDesk();
    agent = await mcpAgent(
      { wide: stdioFixture("wide", { env: markerEnv(marker) }) },
      {
        provider: new ScriptedProvider([
          {
            tool_calls: [
              {
                id: "s1",
                name: "tool_search",
                arguments: { query: "list calendar events", limit: 3 },
              },
            ],
          },
          {
            tool_calls: [
              { id: "c1", name: "mcp__wide__calendar_list_event", arguments: { limit: 5 } },
            ],
          },
          { text: "Three events today." },
        ]),
        policy: { allow: ["mcp__wide__calendar_*"], deny: ["mcp__wide__bank_*"] },
        approve: desk.approver,
      },
    );
    studio = await startStudio({ agent, desk });
  });

  after(async () => {
    await studio?.close();
    await agent?.close();
    const left = await stillRunningAfter(markedProcesses(marker), 2_000);
    assert.deepEqual(left, [], `left running: ${describePids(left)}`);
  });

  it("gives each tool its state and the offer's summary", async () => {
    const { tools, toolSearch } = await api<ToolsAnswer>("/api/tools");
    const wide = tools.filter((tool) => tool.source === "mcp:wide");
    assert.equal(wide.length, 200);
    for (const tool of wide) assert.equal(tool.state, tool.offered ? "deferred" : null, tool.name);
    assert.equal(
      tools.find((tool) => tool.name === "tool_search")?.state,
      "loaded",
      "the search tool is sent in their place",
    );
    assert.deepEqual(
      { engine: toolSearch.engine, loaded: toolSearch.loaded, deferred: toolSearch.deferred },
      { engine: "local", loaded: 1, deferred: 190 },
    );
    assert.equal(toolSearch.found, 0);
    assert.match(toolSearch.reason, /over 20000/);
    assert.ok(toolSearch.tokens.sent < toolSearch.tokens.all / 10, JSON.stringify(toolSearch));
  });

  it("records the search and each turn's tools in the run's events; found tools say so after", async () => {
    const { id } = await api<{ id: string }>("/api/runs", {
      method: "POST",
      body: JSON.stringify({ prompt: "What is in my calendar?" }),
    });
    let run: { state: string; events: RunEvent[] } = { state: "running", events: [] };
    await eventually(
      async () => {
        run = await api(`/api/runs/${id}`);
        return run.state !== "running";
      },
      15_000,
      "the run to end",
    );
    assert.equal(run.state, "done", JSON.stringify(run.events.filter((e) => e.type === "error")));
    const search = run.events.find((event) => event.type === "tool-search");
    assert.ok(search, run.events.map((event) => event.type).join());
    assert.deepEqual(
      { turn: search.turn, engine: search.engine, query: search.query },
      { turn: 1, engine: "local", query: "list calendar events" },
    );
    // The search loads its strong matches (how many is the kernel's to judge), the best first.
    const found = search.found as string[];
    assert.equal(found[0], "mcp__wide__calendar_list_event");
    assert.ok(found.length <= 3, found.join());
    for (const name of found) assert.match(name, /^mcp__wide__calendar_/);

    const turns = run.events.filter((event) => event.type === "turn-start");
    assert.equal(turns.length, 3);
    const [first, second] = turns as Array<
      RunEvent & { tools: string[]; toolTokens: number; deferredTools: number; toolSearch: string }
    >;
    assert.deepEqual(first?.tools, ["tool_search"]);
    assert.equal(first?.deferredTools, 190);
    assert.equal(first?.toolSearch, "local");
    // What the search found is sent after what was sent before, so a prompt cache still hits.
    assert.deepEqual(second?.tools, ["tool_search", ...found]);
    assert.equal(second?.deferredTools, 190 - found.length);
    assert.ok(
      (second?.toolTokens ?? 0) > (first?.toolTokens ?? Infinity),
      `tokens ${first?.toolTokens} then ${second?.toolTokens}`,
    );

    const { tools, toolSearch } = await api<ToolsAnswer>("/api/tools");
    assert.deepEqual(
      tools
        .filter((tool) => tool.state === "found")
        .map((tool) => tool.name)
        .sort(),
      [...found].sort(),
    );
    assert.deepEqual(
      { deferred: toolSearch.deferred, found: toolSearch.found },
      { deferred: 190 - found.length, found: found.length },
    );
  });
});
