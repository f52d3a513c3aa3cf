// The MCP plugin over HTTP against a fixture server of ours that wants a bearer token: configured
// headers with ${VAR} expansion, redaction of the secret, header injection refused, and connect
// failures.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, afterEach, before, describe, it } from "node:test";
import { createAgent, textOf } from "@pseudoclaude/core";
import { mcp } from "@pseudoclaude/plugin-mcp";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import { freePort, type HttpServerProcess, startHttpServer } from "@pseudoclaude/testing/system";
import { fixture, scratch } from "./support/mcp-fixtures.js";
import { sourceStatus } from "./support/mcp-source-status.js";

/** What the fixture's whoami answers for the header it saw. */
function digest(authorization: string): string {
  return `sha256:${createHash("sha256").update(authorization).digest("hex")}`;
}

describe("HTTP headers, failures and secrets against a server that wants a bearer token", () => {
  const TOKEN = "fixture-token-6b1f2c9e";
  const WRONG = "wrong-token-0d4e7a31";
  let server: HttpServerProcess;
  let serverLog: Awaited<ReturnType<typeof scratch>>;
  let workspace: TempWorkspace;

  /** Server log lines written since `mark` (a line count). */
  const linesSince = async (mark: number) => (await serverLog.lines()).slice(mark);

  /** An agent for the workspace's project config, with only the MCP plugin. */
  const configAgent = (yaml: string, strict = false) =>
    workspace.writeConfig("project", yaml).then(() =>
      createAgent({
        workspace: workspace.root,
        config: { homeDir: workspace.home },
        plugins: [mcp()],
        policy: { mode: "bypass" },
        strict,
        // These servers send ${VAR} headers from the project config: the user approved them.
        projectApprovals: "all",
      }),
    );

  const authServer = (name = "auth", extra = "") =>
    [
      `  ${name}:`,
      "    type: http",
      `    url: ${server.url("/mcp")}`,
      "    headers:",
      '      Authorization: "Bearer ${TEST_MCP_TOKEN}"',
      extra,
    ].join("\n");

  before(async () => {
    serverLog = await scratch();
    server = await startHttpServer({
      script: fixture("http-auth"),
      env: { FIXTURE_TOKEN: TOKEN, FIXTURE_LOG: serverLog.log },
    });
  });

  afterEach(async () => {
    delete process.env.TEST_MCP_TOKEN;
    await workspace?.cleanup();
  });

  after(async () => {
    await server?.stop();
    await serverLog?.cleanup();
  });

  it("sends the configured Authorization header with ${VAR} expanded on every request", async () => {
    workspace = await createTempWorkspace();
    process.env.TEST_MCP_TOKEN = TOKEN;
    const mark = (await serverLog.lines()).length;
    const agent = await configAgent(`mcp_servers:\n${authServer()}\n`, true);
    try {
      const whoami = await agent.callTool("mcp__auth__whoami", {});
      assert.equal(whoami.result.ok, true, JSON.stringify(whoami.result.error));
      assert.equal(textOf(whoami.result.content), digest(`Bearer ${TOKEN}`));
      // A server that echoes the header back gets the registered secret taken out.
      const echoed = await agent.callTool("mcp__auth__echo_authorization", {});
      assert.equal(textOf(echoed.result.content), "***");
      const add = await agent.callTool("mcp__auth__add", { a: 2, b: 3 });
      assert.equal(textOf(add.result.content), "5");

      for (const name of ["mcp__auth__whoami", "mcp__auth__add"])
        assert.equal(agent.registry.get(name)?.definition.source, "mcp:auth");
      assert.deepEqual(sourceStatus(agent, "auth").stats, {
        configured: 1,
        connected: 1,
        discovered: 3,
        adapted: 3,
        filtered: 0,
        registered: 3,
      });
      const seen = await linesSince(mark);
      assert.ok(seen.includes("initialize") && seen.includes("tools/call"), seen.join(", "));
      assert.ok(!seen.some((line) => line.startsWith("401")), "no request went without the token");
      // The token is a secret: never in diagnostics or source reports.
      assert.ok(!JSON.stringify(agent.diagnostics()).includes(TOKEN));
      assert.ok(!JSON.stringify(agent.sources()).includes(TOKEN));
    } finally {
      await agent.close();
    }
  });

  it("reports a refused token as a connect failure that says 401 and never shows the token", async () => {
    workspace = await createTempWorkspace();
    process.env.TEST_MCP_TOKEN = WRONG;
    const agent = await configAgent(`mcp_servers:\n${authServer()}\n`);
    try {
      const failure = agent
        .diagnostics()
        .find((diagnostic) => diagnostic.stage === "connect" && diagnostic.item === "auth");
      assert.ok(failure, JSON.stringify(agent.diagnostics()));
      assert.equal(failure.severity, "error");
      assert.match(failure.message, /401/);
      assert.equal(agent.registry.get("mcp__auth__whoami"), undefined);
      assert.equal(sourceStatus(agent, "auth").stats.connected, 0);
      // The server echoed the refused credentials in its 401 body; we must not repeat them.
      for (const [what, text] of [
        ["diagnostics", JSON.stringify(agent.diagnostics())],
        ["sources", JSON.stringify(agent.sources())],
      ] as const) {
        assert.ok(!text.includes(WRONG), `${what} must not contain the token: ${text}`);
      }
    } finally {
      await agent.close();
    }
  });

  it("rejects a header value with CR or LF in the config file and skips only that server", async () => {
    workspace = await createTempWorkspace();
    process.env.TEST_MCP_TOKEN = TOKEN;
    const mark = (await serverLog.lines()).length;
    const injected = [
      "  injected:",
      "    type: http",
      `    url: ${server.url("/mcp")}`,
      "    headers:",
      '      X-Note: "fine\\r\\nX-Injected: yes"',
    ].join("\n");
    const agent = await configAgent(`mcp_servers:\n${injected}\n${authServer()}\n`);
    try {
      const rejected = agent
        .diagnostics()
        .find((diagnostic) => diagnostic.stage === "config" && diagnostic.item === "injected");
      assert.ok(rejected, JSON.stringify(agent.diagnostics()));
      assert.equal(rejected.severity, "error");
      assert.match(rejected.message, /CR or LF/);
      assert.match(rejected.message, /server "injected" is skipped/);
      assert.match(rejected.file ?? "", /\.PseudoClaude[/\\]config\.yaml$/);
      assert.equal(rejected.line, 6, "points at the header line");
      assert.ok(!agent.sources().some((source) => source.id === "mcp:injected"));
      // The other server is untouched, and the skipped one never sent a request.
      const { result } = await agent.callTool("mcp__auth__whoami", {});
      assert.equal(textOf(result.content), digest(`Bearer ${TOKEN}`));
      assert.equal((await linesSince(mark)).filter((line) => line === "initialize").length, 1);
    } finally {
      await agent.close();
    }
  });

  it("drops a header whose ${VAR} expands to CR or LF instead of sending it", async () => {
    workspace = await createTempWorkspace();
    process.env.TEST_MCP_TOKEN = `${TOKEN}\r\nX-Injected: yes`;
    const mark = (await serverLog.lines()).length;
    const agent = await configAgent(`mcp_servers:\n${authServer()}\n`);
    try {
      const dropped = agent
        .diagnostics()
        .find((diagnostic) => diagnostic.stage === "config" && diagnostic.item === "auth");
      assert.ok(dropped, JSON.stringify(agent.diagnostics()));
      assert.match(dropped.message, /expands to a value with CR or LF; the header is dropped/);
      // Without the header the server refuses the connection.
      assert.ok((await linesSince(mark)).some((line) => line.startsWith("401")));
      assert.ok(agent.diagnostics().some((d) => d.stage === "connect" && /401/.test(d.message)));
    } finally {
      await agent.close();
    }
  });

  it("fails fast on an unreachable URL with a connect diagnostic while the other server works", async () => {
    workspace = await createTempWorkspace();
    process.env.TEST_MCP_TOKEN = TOKEN;
    const closedPort = await freePort();
    const down = ["  down:", "    type: http", `    url: http://127.0.0.1:${closedPort}/mcp`].join(
      "\n",
    );
    const started = Date.now();
    const agent = await configAgent(`mcp_servers:\n${down}\n${authServer()}\n`);
    const elapsed = Date.now() - started;
    try {
      // A refused connection is known at once; it must not wait out the 30 s connect budget.
      assert.ok(elapsed < 5_000, `createAgent took ${elapsed} ms`);
      const failure = agent
        .diagnostics()
        .find((diagnostic) => diagnostic.stage === "connect" && diagnostic.item === "down");
      assert.ok(failure, JSON.stringify(agent.diagnostics()));
      assert.equal(failure.severity, "error");
      assert.match(failure.message, new RegExp(`127\\.0\\.0\\.1:${closedPort}.*ECONNREFUSED`));
      assert.equal(sourceStatus(agent, "down").state, "failed");
      assert.equal(sourceStatus(agent, "down").stats.connected, 0);

      assert.equal(sourceStatus(agent, "auth").stats.connected, 1);
      const { result } = await agent.callTool("mcp__auth__add", { a: 40, b: 2 });
      assert.equal(result.ok, true, JSON.stringify(result.error));
      assert.equal(textOf(result.content), "42");
    } finally {
      await agent.close();
    }
  });

  it("never sends notifications/cancelled for the handshake and listing it already finished", async () => {
    // The connect budget (here 1.5 s) must only limit connecting; once it lapses, or the
    // agent closes, finished requests must not be cancelled (the spec forbids cancelling
    // initialize, and a server may log or act on a cancellation of an id it reuses).
    workspace = await createTempWorkspace();
    process.env.TEST_MCP_TOKEN = TOKEN;
    const mark = (await serverLog.lines()).length;
    const agent = await configAgent(
      `mcp_servers:\n${authServer("auth", "    connect_timeout_ms: 1500")}\n`,
      true,
    );
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_900));
      const { result } = await agent.callTool("mcp__auth__add", { a: 1, b: 1 });
      assert.equal(textOf(result.content), "2");
    } finally {
      await agent.close();
    }
    // Let any late notification arrive before looking.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const seen = await linesSince(mark);
    assert.deepEqual(
      seen.filter((line) => line === "notifications/cancelled"),
      [],
      `the server received: ${seen.join(", ")}`,
    );
  });
});
