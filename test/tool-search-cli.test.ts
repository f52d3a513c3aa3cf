// Tool search as the CLI reports it, against a real MCP server over stdio that serves 200
// tools: `tools --json` gives each tool its state and the offer's summary, `--tool-search never`
// sends every definition, `chat --json` carries each search and each turn's fields, `call
// tool_search` answers what a search would load, and `run` shows each search and sends what it
// found.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import {
  describePids,
  markedProcesses,
  markerEnv,
  newMarker,
  stillRunningAfter,
} from "@pseudoclaude/testing/system";
import { fixture } from "#mcp-test/mcp-fixtures.js";
import { CLI_BIN, parseJson, runCli } from "./support/cli.js";

interface ToolJson {
  name: string;
  source: string;
  offered: boolean;
  state?: "loaded" | "deferred" | "found" | null;
}

interface ToolsJson {
  tools: ToolJson[];
  tool_search: {
    engine: string;
    reason: string;
    loaded: number;
    deferred: number;
    found: number;
    tokens: { sent: number; all: number };
  };
}

type ChatEvent = Record<string, unknown> & { type: string };

/**
 * `chat --json` playing `script`: `message` is sent once the wide server has joined (chat
 * connects MCP servers in the background), then stdin ends, which ends the chat.
 */
function chatJson(workspace: TempWorkspace, script: string, message: string): Promise<ChatEvent[]> {
  const child = spawn(process.execPath, [CLI_BIN, "chat", "--json", "--script", script], {
    cwd: workspace.root,
    env: { ...process.env, HOME: workspace.home, USERPROFILE: workspace.home },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const events: ChatEvent[] = [];
  let buffer = "";
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdout.on("data", (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let end = buffer.indexOf("\n"); end >= 0; end = buffer.indexOf("\n")) {
      const event = JSON.parse(buffer.slice(0, end)) as ChatEvent;
      buffer = buffer.slice(end + 1);
      events.push(event);
      if (event.type === "source-ready" && event.source === "mcp:wide")
        child.stdin.end(`${message}\n`);
    }
  });
  const guard = setTimeout(() => child.kill("SIGKILL"), 30_000);
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(guard);
      if (code === 0) resolve(events);
      else reject(new Error(`chat exited ${code}: ${stderr}`));
    });
  });
}

/** The wide server's 200 tools, less the 10 `bank_*` ones the policy denies. */
const OFFERED_WIDE = 190;

describe("tool search in the CLI, with 200 tools of a real MCP server", () => {
  const marker = newMarker();
  let workspace: TempWorkspace;
  let log: string;

  before(async () => {
    workspace = await createTempWorkspace("pc-tool-search-cli-");
    log = path.join(workspace.root, "server.log");
    // The user's own config: trusted, so the server starts without a consent question.
    await workspace.writeConfig(
      "user",
      [
        "mcp_servers:",
        "  wide:",
        `    command: ${JSON.stringify(process.execPath)}`,
        `    args: [${JSON.stringify(fixture("wide"))}]`,
        "    env:",
        `      FIXTURE_LOG: ${JSON.stringify(log)}`,
        ...Object.entries(markerEnv(marker)).map(
          ([key, value]) => `      ${key}: ${JSON.stringify(value)}`,
        ),
        "permissions:",
        '  deny: ["mcp__wide__bank_*"]',
        "",
      ].join("\n"),
    );
  });

  after(async () => {
    const left = await stillRunningAfter(markedProcesses(marker), 2_000);
    assert.deepEqual(left, [], `left running: ${describePids(left)}`);
    await workspace?.cleanup();
  });

  it("tools --json defers the server's tools and offers tool_search, loaded, in their place", async () => {
    const run = await runCli(workspace, ["tools", "--json"]);
    assert.equal(run.code, 0, run.stderr);
    const json = parseJson<ToolsJson>(run);
    const wide = json.tools.filter((tool) => tool.source === "mcp:wide");
    assert.equal(wide.length, 200);
    for (const tool of wide)
      assert.equal(
        tool.state,
        tool.offered ? "deferred" : null,
        `${tool.name}: deferred when offered, no state when denied`,
      );
    assert.equal(wide.filter((tool) => tool.offered).length, OFFERED_WIDE);
    const search = json.tools.find((tool) => tool.name === "tool_search");
    assert.deepEqual(
      search && { source: search.source, offered: search.offered, state: search.state },
      { source: "tool-search", offered: true, state: "loaded" },
    );
    const builtins = json.tools.filter((tool) => tool.source === "builtin");
    assert.ok(builtins.length > 0);
    for (const tool of builtins) assert.equal(tool.state, "loaded", tool.name);

    const summary = json.tool_search;
    assert.equal(summary.engine, "local");
    assert.match(summary.reason, /tool definitions ~\d+ tokens, over 20000/);
    // The counts are the tools' states, so they add up to the offered tools.
    const count = (state: string) => json.tools.filter((tool) => tool.state === state).length;
    assert.deepEqual(
      { loaded: summary.loaded, deferred: summary.deferred, found: summary.found },
      { loaded: count("loaded"), deferred: OFFERED_WIDE, found: 0 },
    );
    assert.equal(
      summary.loaded + summary.deferred + summary.found,
      json.tools.filter((tool) => tool.offered).length,
    );
    assert.ok(summary.tokens.all > 20_000, `all ${summary.tokens.all}`);
    assert.ok(summary.tokens.sent < summary.tokens.all / 5, `sent ${summary.tokens.sent}`);
  });

  it("tools --provider decides as that provider would: Anthropic's own search, OpenAI's limit", async () => {
    const anthropicRun = await runCli(workspace, ["tools", "--json", "--provider", "anthropic"], {
      env: { ANTHROPIC_API_KEY: "sk-ant-not-used" },
    });
    assert.equal(anthropicRun.code, 0, anthropicRun.stderr);
    const native = parseJson<ToolsJson>(anthropicRun);
    assert.equal(native.tool_search.engine, "provider");
    assert.equal(native.tool_search.deferred, OFFERED_WIDE);
    assert.ok(!native.tools.some((tool) => tool.name === "tool_search"), "the API searches");

    const openaiRun = await runCli(
      workspace,
      ["tools", "--json", "--provider", "openai", "--tool-search", "auto"],
      { env: { OPENAI_API_KEY: "sk-not-used" } },
    );
    assert.equal(openaiRun.code, 0, openaiRun.stderr);
    const chat = parseJson<ToolsJson>(openaiRun);
    assert.equal(chat.tool_search.engine, "local");
    assert.match(chat.tool_search.reason, /more than openai limit of 128/);
  });

  it("tools --tool-search never sends every definition: all loaded, no search tool", async () => {
    const run = await runCli(workspace, ["tools", "--json", "--tool-search", "never"]);
    assert.equal(run.code, 0, run.stderr);
    const json = parseJson<ToolsJson>(run);
    const offered = json.tools.filter((tool) => tool.offered);
    assert.equal(offered.filter((tool) => tool.source === "mcp:wide").length, OFFERED_WIDE);
    for (const tool of json.tools) assert.equal(tool.state, tool.offered ? "loaded" : null);
    assert.equal(
      json.tools.some((tool) => tool.name === "tool_search"),
      false,
    );
    assert.deepEqual(
      { ...json.tool_search, tokens: undefined },
      {
        engine: "none",
        reason: "tool search is off (mode never)",
        loaded: offered.length,
        deferred: 0,
        found: 0,
        tokens: undefined,
      },
    );
    assert.equal(json.tool_search.tokens.sent, json.tool_search.tokens.all);
    assert.ok(json.tool_search.tokens.all > 20_000);
  });

  it("tools shows each tool's state and one line on tool search", async () => {
    const run = await runCli(workspace, ["tools"]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^NAME\s+SOURCE\s+SAFETY\s+OFFERED\s+STATE\s+DESCRIPTION$/m);
    assert.match(
      run.stdout,
      /^mcp__wide__calendar_list_event\s+mcp:wide\s+side_effect\s+yes\s+deferred\s/m,
    );
    assert.match(run.stdout, /^mcp__wide__bank_list_transfer\s+mcp:wide\s+side_effect\s+no\s+-\s/m);
    assert.match(run.stdout, /^tool_search\s+tool-search\s+read_only\s+yes\s+loaded\s/m);
    assert.match(
      run.stdout,
      /^tool search: local, 190 deferred, 0 found \(~[\d,]+ of ~[\d,]+ tokens sent\) — tool definitions ~\d+ tokens, over 20000 \(no context window known\)$/m,
    );
  });

  it("refuses a --tool-search mode it does not know, naming the modes", async () => {
    const run = await runCli(workspace, ["tools", "--json", "--tool-search", "sometimes"]);
    assert.equal(run.code, 2);
    const { error } = parseJson<{ error: { code: string; message: string } }>(run);
    assert.equal(error.code, "invalid_flag_value");
    assert.equal(
      error.message,
      '--tool-search must be one of auto, always, never (got "sometimes").',
    );
  });

  it("chat --json carries each search and each turn's tool-search fields", async () => {
    await workspace.write(
      "chat.json",
      JSON.stringify([
        { tool_calls: [{ name: "tool_search", arguments: { query: "list calendar events" } }] },
        { text: "Found them." },
      ]),
    );
    const events = await chatJson(workspace, "chat.json", "what is in my calendar?");
    const search = events.find((event) => event.type === "tool-search");
    assert.deepEqual(search && { ...search, found: undefined }, {
      type: "tool-search",
      turn: 1,
      engine: "local",
      query: "list calendar events",
      found: undefined,
    });
    const found = search?.found as string[];
    assert.equal(found[0], "mcp__wide__calendar_list_event");
    const turns = events.filter((event) => event.type === "turn-start");
    assert.deepEqual(
      turns.map((turn) => [turn.tool_search, turn.deferred_tools]),
      [
        ["local", OFFERED_WIDE],
        ["local", OFFERED_WIDE - found.length],
      ],
    );
    const [first, second] = turns.map((turn) => turn.tool_tokens as number);
    assert.ok((first ?? 0) > 0 && (second ?? 0) > (first ?? 0), `${first} then ${second}`);
  });

  it("call tool_search answers what a search would load, and there is none with never", async () => {
    const args = ["call", "tool_search", '{"query": "list calendar events"}', "--json"];
    const searched = await runCli(workspace, args);
    assert.equal(searched.code, 0, searched.stderr);
    const result = parseJson<{ ok: boolean; metadata: { found: string[] } }>(searched);
    assert.equal(result.metadata.found[0], "mcp__wide__calendar_list_event");
    const off = await runCli(workspace, [...args, "--tool-search", "never"]);
    assert.equal(off.code, 1);
    assert.equal(parseJson<{ error: { code: string } }>(off).error.code, "unknown_tool");
  });

  it("run shows the search on stderr, the next request carries what it found, and so does --continue", async () => {
    await workspace.write(
      "search.json",
      JSON.stringify([
        {
          tool_calls: [
            {
              id: "s1",
              name: "tool_search",
              arguments: { query: "create calendar event", limit: 3 },
            },
          ],
        },
        {
          // The scripted model checks that the found tool's definition was sent.
          expect: { tools: ["tool_search", "mcp__wide__calendar_create_event"] },
          tool_calls: [
            { id: "c1", name: "mcp__wide__calendar_create_event", arguments: { query: "standup" } },
          ],
        },
        { text: "The standup is in the calendar." },
      ]),
    );
    const run = await runCli(workspace, [
      "run",
      "Put the standup in my calendar",
      "--script",
      "search.json",
      "--yes",
    ]);
    assert.equal(run.code, 0, run.stderr);
    // The search loads its strong matches (how many is the kernel's to judge), the best first.
    const line = /^ {2}searched `create calendar event` → (\d+) found: (.+)$/m.exec(run.stderr);
    assert.ok(line, run.stderr);
    const found = (line[2] ?? "").split(", ");
    assert.equal(found.length, Number(line[1]));
    assert.equal(found[0], "mcp__wide__calendar_create_event");
    for (const name of found) assert.match(name, /^mcp__wide__calendar_/);
    assert.match(run.stdout, /The standup is in the calendar\./);
    const calls = (await readFile(log, "utf8"))
      .split("\n")
      .filter((entry) => entry.startsWith("call "));
    assert.deepEqual(calls, ["call calendar_create_event"]);

    // The session keeps what the search found: `--continue` sends it on its first request,
    // with no search in between (the scripted model checks what it was offered).
    await workspace.write(
      "continue.json",
      JSON.stringify([
        {
          expect: { tools: ["tool_search", ...found] },
          tool_calls: [
            { id: "c2", name: "mcp__wide__calendar_create_event", arguments: { query: "retro" } },
          ],
        },
        { text: "The retro is in the calendar too." },
      ]),
    );
    const continued = await runCli(workspace, [
      "run",
      "And the retro",
      "--script",
      "continue.json",
      "--continue",
      "--yes",
    ]);
    assert.equal(continued.code, 0, continued.stderr);
    assert.doesNotMatch(continued.stderr, /searched/);
    assert.match(continued.stdout, /The retro is in the calendar too\./);
  });
});
