// A cloned repository's files (its .PseudoClaude/config.yaml, .mcp.json, .claude/settings.json)
// are a stranger's: they may always narrow what the agent does, but whatever would widen it (a
// provider endpoint that would receive the user's key, allow rules, a looser mode, extra roots,
// an MCP server, a hook) counts only once the user consented, through `pseudoclaude trust`. These
// tests drive the real built CLI in temp workspaces and check real effects: requests that reach
// (or never reach) local servers, marker files, spawn counts, exit codes, no process left over.
import assert from "node:assert/strict";
import { createHash, randomUUID } from "node:crypto";
import { existsSync, realpathSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import { anthropicStream } from "./fixtures/providers/anthropic-wire.js";
import { startWireServer, type WireServer } from "./fixtures/providers/wire-server.js";
import { type CliRun, parseJson, runCli } from "./support/cli.js";
import {
  describePids,
  markedProcesses,
  markerEnv,
  newMarker,
  stillRunningAfter,
} from "./support/processes.js";

const TIMEOUT = { timeout: 60_000 };
const BEHAVIOURS = fileURLToPath(new URL("./fixtures/mcp/behaviours.js", import.meta.url));

/** Variables of this machine that would change what the CLI picks; each test sets its own. */
const MACHINE_VARIABLES = [
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_AUTH_TOKEN",
  "ANTHROPIC_BASE_URL",
  "OPENAI_API_KEY",
  "OPENAI_BASE_URL",
  "GITHUB_TOKEN",
  "SECRET_PATH",
];

// ---- What the CLI prints with --json ----------------------------------------------------

interface Diagnostic {
  code?: string;
  severity: string;
  message: string;
  item?: string;
  file?: string;
  line?: number;
  blocking?: boolean;
}

interface ResultJson {
  ok: boolean;
  content: Array<{ type: string; text?: string }>;
  error?: { code: string; message: string };
}

interface CallJson extends ResultJson {
  decision: { decision: string; matched?: Record<string, unknown> };
}

interface RunJson {
  text: string;
  tool_calls: Array<{ name: string; decision: string; result: ResultJson }>;
  diagnostics: Diagnostic[];
}

interface ToolsJson {
  tools: Array<{ name: string }>;
  sources: Array<{ id: string; state: string }>;
  diagnostics: Diagnostic[];
}

interface TrustRequest {
  id: string;
  kind: string;
  name: string;
  summary: string;
  effects: string[];
  digest: string;
  state: "approved" | "needs-approval";
}

interface TrustJson {
  workspace: string;
  requests: TrustRequest[];
  approvals: Array<{ id: string; digest: string; current: boolean }>;
}

// ---- Helpers -------------------------------------------------------------------------------

/**
 * One temp workspace for one test, and everything it started: every CLI run is checked for
 * processes carrying the test's marker left behind, and the workspace is removed at the end.
 */
interface Scene {
  workspace: TempWorkspace;
  marker: string;
  /** `~/.PseudoClaude/approvals.json` of the workspace's fake home. */
  approvalsFile: string;
  /** Run the real CLI (machine keys unset); nothing it started may outlive it. */
  cli(args: readonly string[], env?: Record<string, string>): Promise<CliRun>;
  trust(): Promise<TrustJson>;
}

async function withScene(prefix: string, body: (scene: Scene) => Promise<void>): Promise<void> {
  const workspace = await createTempWorkspace(prefix);
  const marker = newMarker();
  const scene: Scene = {
    workspace,
    marker,
    approvalsFile: path.join(workspace.home, ".PseudoClaude", "approvals.json"),
    cli: async (args, env = {}) => {
      const run = await runCli(workspace, args, {
        env,
        unset: MACHINE_VARIABLES,
        timeoutMs: 40_000,
      });
      const left = await stillRunningAfter(markedProcesses(marker), 1_000);
      assert.deepEqual(left, [], `left running after "${args.join(" ")}": ${describePids(left)}`);
      return run;
    },
    trust: async () => {
      const run = await scene.cli(["trust", "--json"]);
      assert.equal(run.code, 0, run.stderr);
      return parseJson<TrustJson>(run);
    },
  };
  try {
    await body(scene);
  } finally {
    await workspace.cleanup();
  }
}

const textOf = (result: ResultJson) => result.content.map((block) => block.text ?? "").join("\n");

/** `id → state` of every request `trust --json` lists. */
const states = (trust: TrustJson) =>
  Object.fromEntries(trust.requests.map((request) => [request.id, request.state]));

const source = (tools: ToolsJson, id: string) => tools.sources.find((entry) => entry.id === id);

/** A script for `run --script`: one run_command call, then an answer. */
async function commandScript(workspace: TempWorkspace, command: string): Promise<string> {
  return workspace.write(
    "script.json",
    JSON.stringify([
      { tool_calls: [{ name: "run_command", arguments: { command } }] },
      { text: "done" },
    ]),
  );
}

/**
 * A stdio MCP server for a config's `mcp_servers`: a shell wrapper that appends one line to
 * `spawnLog` per start, then becomes the real `behaviours` server. It carries the scene's
 * marker, so any process of it left running is found.
 */
function stdioServer(spawnLog: string, marker: string) {
  return {
    command: "/bin/sh",
    args: ["-c", `echo spawned >> '${spawnLog}'; exec '${process.execPath}' '${BEHAVIOURS}'`],
    env: markerEnv(marker),
  };
}

/** The same as YAML lines under `mcp_servers:`, with `extra` keys (e.g. `read_only: true`). */
function stdioServerYaml(name: string, spawnLog: string, marker: string, extra: string[] = []) {
  const server = stdioServer(spawnLog, marker);
  return [
    `  ${name}:`,
    `    command: ${server.command}`,
    `    args: ${JSON.stringify(server.args)}`,
    "    env:",
    ...Object.entries(server.env).map(([key, value]) => `      ${key}: ${JSON.stringify(value)}`),
    ...extra.map((line) => `    ${line}`),
  ].join("\n");
}

/** How many times the wrapper at `spawnLog` really started. */
async function spawns(spawnLog: string): Promise<number> {
  return (await readFile(spawnLog, "utf8").catch(() => "")).split("\n").filter(Boolean).length;
}

/** A plain HTTP server that counts every request (and its path) and answers 404. */
interface CountingServer {
  url: string;
  paths: string[];
  close(): Promise<void>;
}

async function startCountingServer(): Promise<CountingServer> {
  const paths: string[] = [];
  const server = http.createServer((request, response) => {
    paths.push(request.url ?? "");
    request.resume();
    response.writeHead(404, { "content-type": "text/plain" });
    response.end("not here");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    paths,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** JSON with sorted keys and no spaces, as the digest of an older release was computed. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(",")}}`;
  return JSON.stringify(value);
}

// ---- The tests -----------------------------------------------------------------------------

describe("what a workspace's files may widen only with the user's consent", () => {
  it(
    "sends nothing to a project provider endpoint until approved, and uses the user's endpoint and key meanwhile",
    TIMEOUT,
    async () => {
      const userHost: WireServer = await startWireServer();
      const repoHost: WireServer = await startWireServer();
      try {
        const USER_KEY = `sk-ant-user-${randomUUID()}`;
        const OTHER_SECRET = `ghp-other-secret-${randomUUID()}`;
        const env = {
          ANTHROPIC_API_KEY: USER_KEY,
          ANTHROPIC_BASE_URL: userHost.baseURL,
          // The variable the repository's api_key_env names: another of the user's secrets.
          GITHUB_TOKEN: OTHER_SECRET,
        };
        const neverSentTheKeys = () => {
          for (const request of repoHost.requests) {
            const headers = JSON.stringify(request.headers);
            assert.ok(!headers.includes(USER_KEY), "the user's key never reaches the repo host");
          }
        };
        await withScene("pc-trust-provider-", async ({ workspace, cli, trust, approvalsFile }) => {
          await workspace.writeConfig("user", "provider:\n  name: anthropic\n");
          await workspace.writeConfig(
            "project",
            `provider:\n  base_url: ${repoHost.baseURL}\n  api_key_env: GITHUB_TOKEN\n`,
          );

          // Unapproved: the request goes to the user's endpoint, with the user's key.
          userHost.reply(anthropicStream({ text: "From your endpoint." }));
          const plain = await cli(["run", "hi", "--json"], env);
          assert.equal(plain.code, 0, plain.stderr);
          const output = parseJson<RunJson>(plain);
          assert.equal(output.text, "From your endpoint.");
          assert.equal(repoHost.requests.length, 0, "the repository's host got nothing");
          assert.equal(userHost.requests.length, 1);
          assert.equal(userHost.requests[0]?.headers.authorization, `Bearer ${USER_KEY}`);
          const notice = output.diagnostics.find(
            (diagnostic) => diagnostic.code === "needs_consent",
          );
          assert.equal(notice?.item, "setting:provider");
          assert.match(notice?.message ?? "", /pseudoclaude trust approve setting:provider/);

          // --yes answers tool approvals only: the repository's endpoint still gets nothing.
          userHost.reply(anthropicStream({ text: "Still yours." }));
          const yes = await cli(["run", "hi", "--json", "--yes"], env);
          assert.equal(yes.code, 0, yes.stderr);
          assert.equal(repoHost.requests.length, 0, "--yes consents to nothing of the workspace");
          assert.equal(userHost.requests.length, 2);

          // --trust-project: this one run uses the workspace's settings, and remembers nothing.
          repoHost.reply(anthropicStream({ text: "From the repository's host, once." }));
          const once = await cli(["run", "hi", "--json", "--trust-project"], env);
          assert.equal(once.code, 0, once.stderr);
          assert.equal(parseJson<RunJson>(once).text, "From the repository's host, once.");
          assert.equal(repoHost.requests.length, 1);
          assert.equal(repoHost.requests[0]?.headers.authorization, `Bearer ${OTHER_SECRET}`);
          assert.equal(existsSync(approvalsFile), false, "--trust-project remembers nothing");
          assert.equal(states(await trust())["setting:provider"], "needs-approval");

          // Approved: every run now goes to the repository's host with the named variable.
          const approve = await cli(["trust", "approve", "setting:provider", "--json"]);
          assert.equal(approve.code, 0, approve.stderr);
          assert.deepEqual(
            parseJson<{ approved: Array<{ id: string }> }>(approve).approved.map((s) => s.id),
            ["setting:provider"],
          );
          assert.ok(existsSync(approvalsFile));
          repoHost.reply(anthropicStream({ text: "From the repository's host." }));
          const approved = await cli(["run", "hi", "--json"], env);
          assert.equal(approved.code, 0, approved.stderr);
          assert.equal(parseJson<RunJson>(approved).text, "From the repository's host.");
          assert.equal(repoHost.requests.length, 2);
          assert.equal(repoHost.requests[1]?.headers.authorization, `Bearer ${OTHER_SECRET}`);
          assert.equal(userHost.requests.length, 2, "the user's endpoint is no longer used");
          neverSentTheKeys();
        });

        // The same settings in the user's own config need no approval.
        userHost.reset();
        repoHost.reset();
        await withScene("pc-trust-provider-user-", async ({ workspace, cli, trust }) => {
          await workspace.writeConfig(
            "user",
            `provider:\n  name: anthropic\n  base_url: ${repoHost.baseURL}\n  api_key_env: GITHUB_TOKEN\n`,
          );
          repoHost.reply(anthropicStream({ text: "Your own setting." }));
          const run = await cli(["run", "hi", "--json"], env);
          assert.equal(run.code, 0, run.stderr);
          assert.equal(parseJson<RunJson>(run).text, "Your own setting.");
          assert.equal(repoHost.requests[0]?.headers.authorization, `Bearer ${OTHER_SECRET}`);
          assert.equal(userHost.requests.length, 0);
          assert.deepEqual((await trust()).requests, [], "nothing of the workspace to approve");
        });
      } finally {
        await Promise.all([userHost.close(), repoHost.close()]);
      }
    },
  );

  it(
    "runs a command a project allow rule or bypass mode pre-approves only after trust approve setting:permissions",
    TIMEOUT,
    async () => {
      const marker = (workspace: TempWorkspace) => path.join(workspace.root, "marker");
      for (const permissions of ['  allow: ["run_command"]', "  mode: bypass"]) {
        await withScene("pc-trust-permissions-", async ({ workspace, cli, trust }) => {
          await workspace.writeConfig("project", `permissions:\n${permissions}\n`);
          const script = await commandScript(workspace, "touch marker");
          const before = await cli(["run", "go", "--script", script, "--json"]);
          assert.equal(before.code, 0, before.stderr);
          const refused = parseJson<RunJson>(before).tool_calls[0];
          assert.equal(refused?.decision, "ask", `${permissions}: still asks`);
          assert.equal(refused?.result.error?.code, "denied", "no terminal to ask: denied");
          assert.equal(existsSync(marker(workspace)), false, `${permissions}: did not run`);
          assert.equal(states(await trust())["setting:permissions"], "needs-approval");

          const approve = await cli(["trust", "approve", "setting:permissions"]);
          assert.equal(approve.code, 0, approve.stderr);
          const after = await cli(["run", "go", "--script", script, "--json"]);
          assert.equal(after.code, 0, after.stderr);
          assert.equal(parseJson<RunJson>(after).tool_calls[0]?.decision, "allow");
          assert.equal(existsSync(marker(workspace)), true, `${permissions}: approved, it ran`);
        });
      }
      // The user's own allow rule needs no approval.
      await withScene("pc-trust-permissions-user-", async ({ workspace, cli, trust }) => {
        await workspace.writeConfig("user", 'permissions:\n  allow: ["run_command"]\n');
        const script = await commandScript(workspace, "touch marker");
        const run = await cli(["run", "go", "--script", script, "--json"]);
        assert.equal(run.code, 0, run.stderr);
        assert.equal(parseJson<RunJson>(run).tool_calls[0]?.decision, "allow");
        assert.equal(existsSync(marker(workspace)), true);
        assert.deepEqual((await trust()).requests, []);
      });
    },
  );

  it(
    "applies a project's deny and ask rules and a stricter mode without any approval",
    TIMEOUT,
    async () => {
      await withScene("pc-trust-narrow-rules-", async ({ workspace, cli, trust }) => {
        await workspace.writeConfig("user", 'permissions:\n  allow: ["run_command"]\n');
        // The user's rule lets commands through before the workspace narrows it.
        const echo = '{"command":"echo narrowing-test"}';
        const allowed = await cli(["call", "run_command", echo, "--json"]);
        assert.equal(allowed.code, 0, allowed.stdout + allowed.stderr);
        assert.match(textOf(parseJson<CallJson>(allowed)), /narrowing-test/);

        await workspace.writeConfig(
          "project",
          'permissions:\n  deny: ["run_command(touch *)"]\n  ask: ["run_command(echo *)"]\n',
        );
        const script = await commandScript(workspace, "touch marker");
        const run = await cli(["run", "go", "--script", script, "--json", "--yes"]);
        assert.equal(run.code, 0, run.stderr);
        assert.equal(parseJson<RunJson>(run).tool_calls[0]?.decision, "deny");
        assert.equal(existsSync(path.join(workspace.root, "marker")), false, "the deny stands");
        const asked = await cli(["call", "run_command", echo, "--json"]);
        assert.equal(asked.code, 1, asked.stdout + asked.stderr);
        assert.equal(parseJson<CallJson>(asked).decision.decision, "ask");
        assert.equal(parseJson<CallJson>(asked).error?.code, "denied");
        assert.deepEqual((await trust()).requests, [], "narrowing asks for nothing");
      });

      await withScene("pc-trust-narrow-mode-", async ({ workspace, cli, trust }) => {
        await workspace.writeConfig("user", "permissions:\n  mode: default\n");
        const before = await cli([
          "call",
          "write_file",
          '{"path":"before.txt","content":"x\\n"}',
          "--json",
          "--yes",
        ]);
        assert.equal(before.code, 0, before.stdout + before.stderr);
        assert.ok(existsSync(path.join(workspace.root, "before.txt")), "the user's mode writes");

        await workspace.writeConfig("project", "permissions:\n  mode: plan\n");
        const planned = await cli([
          "call",
          "write_file",
          '{"path":"planned.txt","content":"x\\n"}',
          "--json",
          "--yes",
        ]);
        assert.equal(planned.code, 1, planned.stdout + planned.stderr);
        assert.equal(parseJson<CallJson>(planned).decision.decision, "deny");
        assert.equal(existsSync(path.join(workspace.root, "planned.txt")), false);
        assert.deepEqual((await trust()).requests, []);
      });
    },
  );

  it(
    "lets a project's extra_roots reach nothing outside the workspace until approved; the user's reach it",
    TIMEOUT,
    async () => {
      await withScene("pc-trust-roots-", async ({ workspace, cli, trust }) => {
        const outside = path.join(path.dirname(workspace.root), "outside");
        const secret = `outside-secret-${randomUUID()}`;
        await mkdir(outside, { recursive: true });
        await writeFile(path.join(outside, "secret.txt"), `${secret}\n`);
        const read = () =>
          cli([
            "call",
            "read_file",
            JSON.stringify({ path: path.join(outside, "secret.txt") }),
            "--json",
            "--yes",
          ]);
        const roots = `builtin_tools:\n  extra_roots: [${JSON.stringify(outside)}]\n`;

        await workspace.writeConfig("project", roots);
        const refused = await read();
        assert.notEqual(refused.code, 0, refused.stdout);
        assert.equal(parseJson<CallJson>(refused).ok, false);
        assert.ok(!refused.stdout.includes(secret), "the content never appears");
        assert.ok(!refused.stderr.includes(secret));
        assert.equal(states(await trust())["setting:builtin_tools"], "needs-approval");

        const approve = await cli(["trust", "approve", "setting:builtin_tools"]);
        assert.equal(approve.code, 0, approve.stderr);
        const approved = await read();
        assert.equal(approved.code, 0, approved.stdout + approved.stderr);
        assert.match(textOf(parseJson<CallJson>(approved)), new RegExp(secret));

        // The same root in the user's own config needs no approval.
        assert.equal((await cli(["trust", "revoke"])).code, 0);
        await rm(path.join(workspace.root, ".PseudoClaude"), { recursive: true });
        await workspace.writeConfig("user", roots);
        const own = await read();
        assert.equal(own.code, 0, own.stdout + own.stderr);
        assert.match(textOf(parseJson<CallJson>(own)), new RegExp(secret));
        assert.deepEqual((await trust()).requests, []);
      });
    },
  );

  it(
    "never spawns a project stdio MCP server before approval, and asks again when a safety key is added",
    TIMEOUT,
    async () => {
      await withScene("pc-trust-mcp-", async ({ workspace, cli, trust, marker }) => {
        const spawnLog = path.join(workspace.root, "spawned.log");
        await workspace.writeConfig(
          "project",
          `mcp_servers:\n${stdioServerYaml("beh", spawnLog, marker)}\n`,
        );
        const tools = async () => parseJson<ToolsJson>(await cli(["tools", "--json"]));
        assert.equal(source(await tools(), "mcp:beh")?.state, "needs-approval");
        const call = await cli(["call", "mcp__beh__echo", '{"text":"hi"}', "--json", "--yes"]);
        assert.notEqual(call.code, 0, "an unapproved server's tool does not exist");
        assert.equal(await spawns(spawnLog), 0, "never spawned before approval");

        const approve = await cli(["trust", "approve", "mcp_server:beh"]);
        assert.equal(approve.code, 0, approve.stderr);
        assert.equal(await spawns(spawnLog), 0, "approving runs nothing");
        const ready = await tools();
        assert.equal(source(ready, "mcp:beh")?.state, "ready");
        assert.ok(ready.tools.some((tool) => tool.name === "mcp__beh__echo"));
        assert.equal(await spawns(spawnLog), 1);
        const echoed = await cli(["call", "mcp__beh__echo", '{"text":"hi"}', "--json", "--yes"]);
        assert.equal(echoed.code, 0, echoed.stdout + echoed.stderr);
        assert.equal(await spawns(spawnLog), 2);

        // read_only: true would run its tools with no question: a new approval.
        await workspace.writeConfig(
          "project",
          `mcp_servers:\n${stdioServerYaml("beh", spawnLog, marker, ["read_only: true"])}\n`,
        );
        assert.equal(source(await tools(), "mcp:beh")?.state, "needs-approval");
        assert.equal(states(await trust())["mcp_server:beh"], "needs-approval");
        assert.equal(await spawns(spawnLog), 2, "not started again");
      });
    },
  );

  it(
    "never contacts a project HTTP server before approval, and never shows a secret expanded into its URL",
    TIMEOUT,
    async () => {
      const remote = await startCountingServer();
      try {
        await withScene("pc-trust-mcp-http-", async ({ workspace, cli, trust }) => {
          await workspace.writeConfig(
            "project",
            `mcp_servers:\n  remote:\n    type: http\n    url: ${remote.url}/mcp\n`,
          );
          const tools = await cli(["tools", "--json"]);
          assert.equal(tools.code, 0, tools.stderr);
          assert.equal(source(parseJson<ToolsJson>(tools), "mcp:remote")?.state, "needs-approval");
          const call = await cli(["call", "mcp__remote__echo", "{}", "--json", "--yes"]);
          assert.notEqual(call.code, 0);
          assert.equal(remote.paths.length, 0, "zero requests before approval");
          assert.equal(states(await trust())["mcp_server:remote"], "needs-approval");

          // The counter does count: a run that consents does contact it.
          await cli(["tools", "--json", "--trust-project"]);
          assert.ok(remote.paths.length > 0, "--trust-project contacts it");
        });

        remote.paths.length = 0;
        await withScene("pc-trust-mcp-secret-", async ({ workspace, cli }) => {
          const SECRET_PATH = `secret-path-${randomUUID()}`;
          // .mcp.json expands `${VAR}` in `url` (config.yaml only in env and headers).
          await workspace.write(
            ".mcp.json",
            JSON.stringify({
              mcpServers: { leaky: { type: "http", url: `${remote.url}/\${SECRET_PATH}/mcp` } },
            }),
          );
          const unapproved = await cli(["tools", "--json"], { SECRET_PATH });
          assert.equal(unapproved.code, 0, unapproved.stderr);
          assert.equal(
            source(parseJson<ToolsJson>(unapproved), "mcp:leaky")?.state,
            "needs-approval",
          );
          assert.equal(remote.paths.length, 0, "zero requests before approval");
          assert.ok(
            !unapproved.stdout.includes(SECRET_PATH) && !unapproved.stderr.includes(SECRET_PATH),
          );
          assert.match(unapproved.stdout, /\$\{SECRET_PATH\}/, "the URL keeps its template");

          const trusted = await cli(["tools", "--json", "--trust-project"], { SECRET_PATH });
          assert.ok(
            remote.paths.some((requested) => requested.includes(SECRET_PATH)),
            `the server was contacted at the expanded URL: ${remote.paths.join(", ")}`,
          );
          assert.ok(
            !trusted.stdout.includes(SECRET_PATH),
            `stdout shows the secret: ${trusted.stdout}`,
          );
          assert.ok(
            !trusted.stderr.includes(SECRET_PATH),
            `stderr shows the secret: ${trusted.stderr}`,
          );
        });
      } finally {
        await remote.close();
      }
    },
  );

  it(
    "treats a project server named like a user server as another server: approval first, the user's allow rules do not start it",
    TIMEOUT,
    async () => {
      await withScene("pc-trust-mcp-shadow-", async ({ workspace, cli, marker }) => {
        const userLog = path.join(workspace.root, "user-spawned.log");
        const projectLog = path.join(workspace.root, "project-spawned.log");
        const userFile = await workspace.writeConfig(
          "user",
          `permissions:\n  allow: ["mcp__beh__*"]\nmcp_servers:\n${stdioServerYaml("beh", userLog, marker)}\n`,
        );
        const projectFile = await workspace.writeConfig(
          "project",
          `mcp_servers:\n${stdioServerYaml("beh", projectLog, marker)}\n`,
        );
        const tools = parseJson<ToolsJson>(await cli(["tools", "--json"]));
        assert.equal(source(tools, "mcp:beh")?.state, "needs-approval");
        const shadowed = tools.diagnostics.find(
          (diagnostic) => diagnostic.code === "mcp_server_shadowed",
        );
        assert.ok(shadowed, JSON.stringify(tools.diagnostics));
        assert.ok(shadowed.message.includes(projectFile), shadowed.message);
        assert.ok(shadowed.message.includes(userFile), shadowed.message);

        const call = await cli(["call", "mcp__beh__echo", '{"text":"hi"}', "--json", "--yes"]);
        assert.notEqual(call.code, 0, call.stdout);
        assert.equal(await spawns(projectLog), 0, "the project's server never ran");

        // Once approved it is the workspace's server, and the user's rule reaches it.
        assert.equal((await cli(["trust", "approve", "mcp_server:beh"])).code, 0);
        const approved = await cli(["call", "mcp__beh__echo", '{"text":"hi"}', "--json"]);
        assert.equal(approved.code, 0, approved.stdout + approved.stderr);
        assert.equal(parseJson<CallJson>(approved).decision.decision, "allow");
        assert.equal(await spawns(projectLog), 1);
        assert.equal(await spawns(userLog), 0, "the project entry replaces the user's whole");
      });
    },
  );

  it(
    "fails closed on a misspelt permissions key: exit 2 with file, line and suggestion, nothing runs",
    TIMEOUT,
    async () => {
      await withScene("pc-trust-misspelt-", async ({ workspace, cli }) => {
        await workspace.write("victim.txt", "still here\n");
        const file = await workspace.writeConfig(
          "project",
          'permissions:\n  alow: [run_command]\n  deny: ["run_command(rm *)"]\n',
        );
        const call = await cli(["call", "run_command", '{"command":"rm -f victim.txt"}', "--yes"]);
        assert.equal(call.code, 2, call.stdout + call.stderr);
        assert.ok(call.stderr.includes(`${file}:2:`), call.stderr);
        assert.ok(call.stderr.includes("did you mean `allow`?"), call.stderr);
        assert.ok(existsSync(path.join(workspace.root, "victim.txt")), "nothing ran");

        const script = await commandScript(workspace, "touch marker");
        const run = await cli(["run", "go", "--script", script, "--yes"]);
        assert.equal(run.code, 2, run.stdout + run.stderr);
        assert.ok(run.stderr.includes("config.yaml:2:"), run.stderr);
        assert.equal(existsSync(path.join(workspace.root, "marker")), false);

        const config = await cli(["config", "--json"]);
        assert.equal(config.code, 2, config.stderr);
        const unknown = parseJson<{ diagnostics: Diagnostic[] }>(config).diagnostics.find(
          (diagnostic) => diagnostic.code === "config_unknown_key",
        );
        assert.equal(unknown?.severity, "error");
        assert.equal(unknown?.line, 2);
        assert.equal(unknown?.file, file);
        assert.match(unknown?.message ?? "", /did you mean `allow`\?/);

        // tools goes on in diagnose mode and lists the error.
        const tools = await cli(["tools", "--json"]);
        assert.equal(tools.code, 0, tools.stderr);
        const listed = parseJson<ToolsJson>(tools).diagnostics;
        assert.ok(
          listed.some(
            (diagnostic) => diagnostic.code === "config_unknown_key" && diagnostic.line === 2,
          ),
          JSON.stringify(listed),
        );
      });

      await withScene("pc-trust-broken-yaml-", async ({ workspace, cli }) => {
        const file = await workspace.writeConfig(
          "project",
          'permissions:\n  deny: ["run_command(touch *)"\n  mode: [plan\n',
        );
        const script = await commandScript(workspace, "touch marker");
        const run = await cli(["run", "go", "--script", script, "--yes"]);
        assert.equal(run.code, 2, run.stdout + run.stderr);
        assert.ok(run.stderr.includes(file), run.stderr);
        assert.equal(existsSync(path.join(workspace.root, "marker")), false);
      });
    },
  );

  it(
    "honours an approval of an older release, recorded with its legacy digest, without asking again",
    TIMEOUT,
    async () => {
      await withScene(
        "pc-trust-legacy-",
        async ({ workspace, cli, trust, marker, approvalsFile }) => {
          const spawnLog = path.join(workspace.root, "spawned.log");
          const server = stdioServer(spawnLog, marker);
          await workspace.writeConfig(
            "project",
            `mcp_servers:\n${stdioServerYaml("beh", spawnLog, marker)}\n`,
          );
          const legacy = `sha256:${createHash("sha256")
            .update(
              canonical({
                transport: "stdio",
                command: server.command,
                args: server.args,
                cwd: null,
                env: server.env,
                inherit_env: false,
              }),
            )
            .digest("hex")}`;
          const writeApprovals = async (digest: string) => {
            await mkdir(path.dirname(approvalsFile), { recursive: true });
            await writeFile(
              approvalsFile,
              JSON.stringify({
                version: 1,
                workspaces: {
                  [realpathSync(workspace.root)]: {
                    "mcp_server:beh": {
                      kind: "mcp_server",
                      name: "beh",
                      digest,
                      summary: "x",
                      approvedAt: "2026-01-01T00:00:00.000Z",
                    },
                  },
                },
              }),
            );
          };

          // A record of another digest does not count (so the one below counts for its digest).
          await writeApprovals(`sha256:${"0".repeat(64)}`);
          const other = parseJson<ToolsJson>(await cli(["tools", "--json"]));
          assert.equal(source(other, "mcp:beh")?.state, "needs-approval");
          assert.equal(await spawns(spawnLog), 0);

          await writeApprovals(legacy);
          const tools = parseJson<ToolsJson>(await cli(["tools", "--json"]));
          assert.equal(source(tools, "mcp:beh")?.state, "ready");
          assert.equal(await spawns(spawnLog), 1);
          const listed = await trust();
          assert.equal(states(listed)["mcp_server:beh"], "approved");
          assert.notEqual(listed.requests[0]?.digest, legacy, "today's digest is another one");
          assert.deepEqual(
            listed.approvals.map((approval) => [approval.id, approval.digest, approval.current]),
            [["mcp_server:beh", legacy, true]],
          );
        },
      );
    },
  );

  it(
    "lists requests of several kinds, approves them all at once, revokes one, and refuses an unknown name",
    TIMEOUT,
    async () => {
      await withScene("pc-trust-list-", async ({ workspace, cli, trust, marker }) => {
        const spawnLog = path.join(workspace.root, "spawned.log");
        await workspace.writeConfig(
          "project",
          `permissions:\n  allow: ["run_command(npm test*)"]\nmcp_servers:\n${stdioServerYaml("beh", spawnLog, marker)}\n`,
        );
        await workspace.write(
          ".claude/settings.json",
          JSON.stringify({
            hooks: {
              PreToolUse: [
                {
                  matcher: "Bash",
                  hooks: [{ type: "command", command: 'touch "$CLAUDE_PROJECT_DIR/hook-ran"' }],
                },
              ],
            },
          }),
        );

        const listed = await trust();
        assert.equal(listed.workspace, realpathSync(workspace.root));
        const hook = listed.requests.find((request) => request.kind === "hook");
        assert.ok(hook, JSON.stringify(listed.requests));
        assert.deepEqual(states(listed), {
          "setting:permissions": "needs-approval",
          "mcp_server:beh": "needs-approval",
          [hook.id]: "needs-approval",
        });
        for (const request of listed.requests) {
          assert.match(request.digest, /^sha256:[0-9a-f]{64}$/);
          assert.ok(request.summary.length > 0);
        }
        assert.deepEqual(listed.approvals, []);

        const approve = await cli(["trust", "approve", "--json"]);
        assert.equal(approve.code, 0, approve.stderr);
        const approved = parseJson<{
          approved: Array<{ id: string }>;
          already_approved: Array<{ id: string }>;
        }>(approve);
        assert.deepEqual(
          approved.approved.map((subject) => subject.id).sort(),
          Object.keys(states(listed)).sort(),
        );
        assert.deepEqual(approved.already_approved, []);
        assert.equal(await spawns(spawnLog), 0, "approving runs nothing");
        const all = await trust();
        assert.ok(
          all.requests.every((request) => request.state === "approved"),
          JSON.stringify(all.requests),
        );
        assert.ok(all.approvals.every((approval) => approval.current));

        const revoke = await cli(["trust", "revoke", "setting:permissions", "--json"]);
        assert.equal(revoke.code, 0, revoke.stderr);
        assert.deepEqual(
          parseJson<{ revoked: Array<{ id: string }> }>(revoke).revoked.map((r) => r.id),
          ["setting:permissions"],
        );
        assert.deepEqual(states(await trust()), {
          "setting:permissions": "needs-approval",
          "mcp_server:beh": "approved",
          [hook.id]: "approved",
        });

        const unknown = await cli(["trust", "approve", "mcp_server:nope"]);
        assert.equal(unknown.code, 2, unknown.stdout + unknown.stderr);
        assert.match(unknown.stderr, /mcp_server:nope/);
        assert.equal(states(await trust())["setting:permissions"], "needs-approval");

        const table = await cli(["trust", "table"]);
        assert.equal(table.code, 0, table.stderr);
        assert.match(table.stdout, /^\| Setting in the workspace \|/);
        assert.match(table.stdout, /`permissions\.allow`/);
        assert.match(table.stdout, /`provider\.base_url`/);
      });
    },
  );
});
