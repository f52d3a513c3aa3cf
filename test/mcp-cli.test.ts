// The built `pseudoclaude` CLI with MCP servers from a project config, over real stdio: what
// a user runs. Every command must leave no server process behind.
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import {
  describePids,
  markedProcesses,
  markerEnv,
  newMarker,
  stillRunningAfter,
} from "@pseudoclaude/testing/system";
import { type CliRun, parseJson, runCli } from "./support/cli.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const BEHAVIOURS = fileURLToPath(import.meta.resolve("#mcp-fixtures/behaviours.js"));
const EVERYTHING = path.join(
  ROOT,
  "node_modules",
  "@modelcontextprotocol",
  "server-everything",
  "dist",
  "index.js",
);

const TIMEOUT = { timeout: 30_000 };

/** A workspace whose project config declares one stdio server, and what that server logged. */
interface Project {
  workspace: TempWorkspace;
  marker: string;
  /** Lines the behaviours fixture appended (`list`, `call <tool>` ...). */
  serverLog(): Promise<string[]>;
  run(args: readonly string[]): Promise<CliRun>;
}

/** YAML for one stdio server; JSON strings are valid YAML scalars, so paths need no escaping. */
function serverYaml(name: string, args: string[], env: Record<string, string>): string {
  const lines = [
    `  ${name}:`,
    "    type: stdio",
    `    command: ${JSON.stringify(process.execPath)}`,
    `    args: ${JSON.stringify(args)}`,
    "    env:",
    ...Object.entries(env).map(([key, value]) => `      ${key}: ${JSON.stringify(value)}`),
  ];
  return lines.join("\n");
}

async function withProject(
  body: (project: Project) => Promise<void>,
  options: {
    server?: "behaviours" | "everything";
    extraYaml?: string;
    /** Approve the project's server first, as its user would (default true). */
    approve?: boolean;
  } = {},
): Promise<void> {
  const workspace = await createTempWorkspace("pc-e2e-cli-");
  const marker = newMarker();
  const log = path.join(workspace.root, "server.log");
  const server =
    options.server === "everything"
      ? serverYaml("everything", [EVERYTHING, "stdio"], markerEnv(marker))
      : serverYaml("beh", [BEHAVIOURS], { FIXTURE_LOG: log, ...markerEnv(marker) });
  await workspace.writeConfig(
    "project",
    `mcp_servers:\n${server}\n${options.extraYaml ? `${options.extraYaml}\n` : ""}`,
  );
  const project: Project = {
    workspace,
    marker,
    serverLog: async () =>
      (await readFile(log, "utf8").catch(() => "")).split("\n").filter((line) => line !== ""),
    run: async (args) => {
      const run = await runCli(workspace, args);
      // The CLI closes its agent before exiting: nothing it started may outlive it.
      const left = await stillRunningAfter(markedProcesses(marker), 500);
      assert.deepEqual(left, [], `left running after "${args[0]}": ${describePids(left)}`);
      return run;
    },
  };
  try {
    if (options.approve !== false) {
      // A project server is a stranger's code until approved: the user approves it once.
      const approval = await runCli(workspace, ["mcp", "approve"]);
      assert.equal(approval.code, 0, approval.stderr);
    }
    await body(project);
  } finally {
    await workspace.cleanup();
  }
}

interface ToolsJson {
  tools: Array<{
    name: string;
    source: string;
    safety: string;
    offered: boolean;
    title?: string;
    icons?: unknown[];
    meta?: Record<string, unknown>;
  }>;
  sources: Array<{ id: string; state: string; stats: Record<string, number> }>;
  diagnostics: Array<{ code?: string; severity: string; message: string }>;
}

interface ResultJson {
  ok: boolean;
  content: Array<{ type: string; text?: string }>;
  structured?: unknown;
  error?: { code: string; message: string };
  metadata: Record<string, unknown>;
  decision?: { decision: string; reason: string };
  approval?: string;
}

const calls = (lines: string[]) => lines.filter((line) => line.startsWith("call "));

describe("pseudoclaude with MCP servers from the project config", () => {
  it(
    "tools --json lists the server's tools from source mcp:<name> with its counters",
    TIMEOUT,
    async () => {
      await withProject(async (project) => {
        const run = await project.run(["tools", "--json"]);
        assert.equal(run.code, 0, run.stderr);
        const listing = parseJson<ToolsJson>(run);
        const remote = listing.tools.filter((tool) => tool.name.startsWith("mcp__beh__"));
        assert.ok(
          remote.some((tool) => tool.name === "mcp__beh__echo"),
          remote.map((tool) => tool.name).join(),
        );
        // Title, icons (only https: and data:image sources) and the server's _meta, kept apart.
        const view = remote.find((tool) => tool.name === "mcp__beh__app_view");
        assert.equal(view?.title, "Chart view");
        assert.deepEqual(view?.icons, [
          { src: "https://example.com/chart.png", mimeType: "image/png", sizes: ["48x48"] },
          { src: "data:image/png;base64,iVBORw0KGgo=", theme: "dark" },
        ]);
        assert.deepEqual(view?.meta?.remote_meta, {
          ui: { resourceUri: "ui://views/chart" },
          server: "spoofed",
        });
        assert.equal(view?.meta?.server, "beh", "the server's _meta never replaces ours");
        for (const tool of remote) {
          assert.equal(tool.source, "mcp:beh");
          assert.equal(tool.safety, "side_effect", `${tool.name}: hints are not trusted`);
          assert.equal(tool.offered, true);
        }
        const source = listing.sources.find((entry) => entry.id === "mcp:beh");
        assert.ok(source, JSON.stringify(listing.sources));
        assert.equal(source.state, "ready");
        assert.deepEqual(source.stats, {
          configured: 1,
          connected: 1,
          discovered: remote.length,
          adapted: remote.length,
          filtered: 0,
          registered: remote.length,
        });
        assert.deepEqual(
          listing.diagnostics.filter((diagnostic) => diagnostic.severity === "error"),
          [],
        );
        assert.ok((await project.serverLog()).includes("list"), "the server was really listed");
      });
    },
  );

  it(
    "call --yes runs the remote tool and reports server, remote name and timeout",
    TIMEOUT,
    async () => {
      await withProject(async (project) => {
        const run = await project.run([
          "call",
          "mcp__beh__echo",
          '{"text":"hi"}',
          "--json",
          "--yes",
        ]);
        assert.equal(run.code, 0, run.stderr);
        const result = parseJson<ResultJson>(run);
        assert.equal(result.ok, true);
        assert.deepEqual(result.content, [{ type: "text", text: "hi" }]);
        assert.equal(result.metadata.server, "beh");
        assert.equal(result.metadata.remote_tool, "echo");
        assert.equal(result.metadata.tool, "mcp__beh__echo");
        assert.equal(typeof result.metadata.timeout_ms, "number");
        assert.ok((result.metadata.timeout_ms as number) > 0);
        assert.equal(result.decision?.decision, "ask");
        assert.equal(result.approval, "approved");
        assert.deepEqual(calls(await project.serverLog()), ["call echo"]);
      });
    },
  );

  it(
    "call without --yes and without a terminal is denied and never reaches the server",
    TIMEOUT,
    async () => {
      await withProject(async (project) => {
        const run = await project.run(["call", "mcp__beh__echo", '{"text":"hi"}', "--json"]);
        assert.equal(run.code, 1, run.stderr);
        const result = parseJson<ResultJson>(run);
        assert.equal(result.ok, false);
        assert.equal(result.error?.code, "denied");
        assert.match(result.error?.message ?? "", /--yes/);
        assert.equal(result.approval, "no_approver");
        const log = await project.serverLog();
        assert.ok(log.includes("list"), "the server did start");
        assert.deepEqual(calls(log), []);
      });
    },
  );

  it(
    "call without a terminal offers the server no elicitation, so its question is refused, not declined unseen",
    TIMEOUT,
    async () => {
      await withProject(async (project) => {
        const run = await project.run(["call", "mcp__beh__ask_user", "{}", "--json", "--yes"]);
        assert.equal(run.code, 1, run.stderr);
        const result = parseJson<ResultJson>(run);
        assert.equal(result.ok, false);
        // The server's SDK knows the client cannot elicit and does not ask.
        assert.match(result.content[0]?.text ?? "", /Client does not support form elicitation/);
        assert.deepEqual(calls(await project.serverLog()), ["call ask_user"]);
      });
    },
  );

  it(
    "call with arguments that are not an object answers invalid_arguments before the server",
    TIMEOUT,
    async () => {
      await withProject(async (project) => {
        const run = await project.run(["call", "mcp__beh__echo", "[1]", "--json", "--yes"]);
        assert.equal(run.code, 1, run.stderr);
        const result = parseJson<ResultJson>(run);
        assert.equal(result.ok, false);
        assert.equal(result.error?.code, "invalid_arguments");
        const log = await project.serverLog();
        assert.ok(log.includes("list"), "the server did start");
        assert.deepEqual(calls(log), [], "the server never saw the call");
      });
    },
  );

  it(
    "run drives the remote tool through the whole loop with a scripted model",
    TIMEOUT,
    async () => {
      await withProject(async (project) => {
        const script = path.join(project.workspace.root, "script.json");
        await writeFile(
          script,
          JSON.stringify([
            { tool_calls: [{ name: "mcp__beh__echo", arguments: { text: "please" } }] },
            { text: "The server said please." },
          ]),
        );
        const run = await project.run([
          "run",
          "echo please",
          "--provider",
          "scripted",
          "--script",
          script,
          "--yes",
          "--json",
        ]);
        assert.equal(run.code, 0, run.stderr);
        const output = parseJson<{
          text: string;
          turns: number;
          stop_reason: string;
          tool_calls: Array<{
            name: string;
            decision: string;
            approval?: string;
            result: ResultJson;
          }>;
        }>(run);
        assert.equal(output.text, "The server said please.");
        assert.equal(output.turns, 2);
        assert.equal(output.stop_reason, "end_turn");
        assert.equal(output.tool_calls.length, 1);
        const [call] = output.tool_calls;
        assert.equal(call!.name, "mcp__beh__echo");
        assert.equal(call!.decision, "ask");
        assert.equal(call!.approval, "approved");
        assert.equal(call!.result.ok, true);
        assert.deepEqual(call!.result.content, [{ type: "text", text: "please" }]);
        assert.equal(call!.result.metadata.remote_tool, "echo");
        assert.deepEqual(calls(await project.serverLog()), ["call echo"]);
      });
    },
  );

  it(
    "a permissions deny rule in the project config hides and refuses the server's tools",
    TIMEOUT,
    async () => {
      await withProject(
        async (project) => {
          const listed = await project.run(["tools", "--json"]);
          assert.equal(listed.code, 0, listed.stderr);
          const remote = parseJson<ToolsJson>(listed).tools.filter((tool) =>
            tool.name.startsWith("mcp__beh__"),
          );
          assert.ok(remote.length > 0, "the tools are still registered");
          for (const tool of remote) assert.equal(tool.offered, false, tool.name);

          const run = await project.run([
            "call",
            "mcp__beh__echo",
            '{"text":"hi"}',
            "--json",
            "--yes",
          ]);
          assert.equal(run.code, 1, run.stderr);
          const result = parseJson<ResultJson>(run);
          assert.equal(result.error?.code, "denied");
          assert.equal(result.decision?.decision, "deny");
          assert.equal(result.approval, undefined, "a deny rule is not up for approval");
          assert.deepEqual(calls(await project.serverLog()), []);
        },
        { extraYaml: 'permissions:\n  deny: ["mcp__beh__*"]' },
      );
    },
  );

  it("call returns server-everything's structured content through the CLI", TIMEOUT, async () => {
    await withProject(
      async (project) => {
        const run = await project.run([
          "call",
          "mcp__everything__get-structured-content",
          '{"location":"New York"}',
          "--json",
          "--yes",
        ]);
        assert.equal(run.code, 0, run.stderr);
        const result = parseJson<ResultJson>(run);
        assert.equal(result.ok, true);
        assert.deepEqual(result.structured, {
          temperature: 33,
          conditions: "Cloudy",
          humidity: 82,
        });
        assert.equal(result.metadata.server, "everything");
        assert.equal(result.metadata.remote_tool, "get-structured-content");
      },
      { server: "everything" },
    );
  });
});
