// The MCP plugin over real HTTP: server-everything over Streamable HTTP and legacy SSE, and a
// fixture server of ours that wants a bearer token (headers, ${VAR} expansion, redaction,
// connect failures).
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import path from "node:path";
import { after, afterEach, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { type Agent, type ContentBlock, createAgent, textOf } from "@pseudoclaude/core";
import { type ToolProgress } from "@pseudoclaude/core/plugin";
import { mcp } from "@pseudoclaude/plugin-mcp";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import {
  freePort,
  type HttpServerProcess,
  startHttpServer,
} from "./support/http-server-process.js";
import { eventually, fixture, mcpAgent, scratch } from "./support/mcp-fixtures.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const EVERYTHING = path.join(
  root,
  "node_modules/@modelcontextprotocol/server-everything/dist/index.js",
);

/** What the fixture's whoami answers for the header it saw. */
function digest(authorization: string): string {
  return `sha256:${createHash("sha256").update(authorization).digest("hex")}`;
}

function sourceStatus(agent: Agent, server: string) {
  const report = agent.sources().find((source) => source.id === `mcp:${server}`);
  assert.ok(report, `source mcp:${server} exists`);
  return report.status;
}

function blocksOf<T extends ContentBlock["type"]>(content: ContentBlock[], type: T) {
  return content.filter(
    (block): block is Extract<ContentBlock, { type: T }> => block.type === type,
  );
}

describe("MCP over Streamable HTTP against server-everything", () => {
  let server: HttpServerProcess;
  let agent: Agent;

  before(async () => {
    server = await startHttpServer({ script: EVERYTHING, args: ["streamableHttp"] });
    agent = await mcpAgent(
      { everything: { type: "http", url: server.url("/mcp") } },
      { policy: { mode: "bypass" }, strict: true },
    );
  });

  after(async () => {
    await agent?.close();
    await server?.stop();
  });

  it("discovers the server's tools as mcp__everything__* from source mcp:everything", async () => {
    const expected = [
      "mcp__everything__echo",
      "mcp__everything__get-tiny-image",
      "mcp__everything__get-structured-content",
      "mcp__everything__get-resource-links",
      "mcp__everything__trigger-long-running-operation",
    ];
    for (const name of expected) {
      const tool = agent.registry.get(name);
      assert.ok(tool, `${name} is registered`);
      assert.equal(tool.definition.source, "mcp:everything");
      assert.equal(tool.definition.meta?.remote_name, name.replace("mcp__everything__", ""));
    }
    // The tools it adds after initialization (list_changed) arrive too.
    await eventually(
      () => agent.registry.get("mcp__everything__get-roots-list") !== undefined,
      5_000,
      "the conditional tool get-roots-list",
    );
    const status = sourceStatus(agent, "everything");
    assert.equal(status.state, "ready");
    assert.match(status.parts?.[0]?.message ?? "", /protocol 2025-11-25, http\)/);
  });

  it("calls echo and returns its text", async () => {
    const { decision, result } = await agent.callTool("mcp__everything__echo", {
      message: "hello over http",
    });
    assert.equal(decision.verdict, "allow");
    assert.equal(result.ok, true, JSON.stringify(result.error));
    assert.equal(textOf(result.content), "Echo: hello over http");
    assert.equal(result.metadata.server, "everything");
    assert.equal(result.metadata.remote_tool, "echo");
  });

  it("returns get-tiny-image's picture as an image block of PNG data", async () => {
    const { result } = await agent.callTool("mcp__everything__get-tiny-image", {});
    assert.equal(result.ok, true, JSON.stringify(result.error));
    const images = blocksOf(result.content, "image");
    assert.equal(images.length, 1);
    const image = images[0]!;
    assert.equal(image.mimeType, "image/png");
    const bytes = Buffer.from(image.data, "base64");
    assert.ok(bytes.length > 100, "real image data");
    assert.deepEqual([...bytes.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47], "PNG signature");
    // The text around the image is kept, in order.
    assert.deepEqual(
      result.content.map((block) => block.type),
      ["text", "image", "text"],
    );
  });

  it("keeps get-structured-content's structured value beside its text", async () => {
    const { result } = await agent.callTool("mcp__everything__get-structured-content", {
      location: "New York",
    });
    assert.equal(result.ok, true, JSON.stringify(result.error));
    const expected = { temperature: 33, conditions: "Cloudy", humidity: 82 };
    assert.deepEqual(result.structured, expected);
    assert.deepEqual(JSON.parse(textOf(result.content)), expected);
  });

  it("returns get-resource-links' links as resource_link blocks", async () => {
    const { result } = await agent.callTool("mcp__everything__get-resource-links", { count: 2 });
    assert.equal(result.ok, true, JSON.stringify(result.error));
    const links = blocksOf(result.content, "resource_link");
    assert.equal(links.length, 2);
    for (const link of links) {
      assert.match(link.uri, /^demo:\/\/resource\//);
      assert.ok(link.name, "a link keeps its name");
      assert.ok(link.mimeType, "a link keeps its MIME type");
    }
  });

  it("reports a long-running operation's progress to tool-progress listeners as it runs", async () => {
    const seen: Array<{ turn: number; name: string; progress: ToolProgress; at: number }> = [];
    const listener = (event: { turn: number; call: { name: string }; progress: ToolProgress }) =>
      seen.push({ ...event, name: event.call.name, at: Date.now() });
    agent.on("tool-progress", listener);
    try {
      const { result } = await agent.callTool("mcp__everything__trigger-long-running-operation", {
        duration: 0.3,
        steps: 3,
      });
      const finished = Date.now();
      assert.equal(result.ok, true, JSON.stringify(result.error));
      assert.match(textOf(result.content), /Steps: 3/);
      assert.deepEqual(
        seen.map((event) => [
          event.turn,
          event.name,
          event.progress.progress,
          event.progress.total,
        ]),
        [
          [0, "mcp__everything__trigger-long-running-operation", 1, 3],
          [0, "mcp__everything__trigger-long-running-operation", 2, 3],
          [0, "mcp__everything__trigger-long-running-operation", 3, 3],
        ],
      );
      assert.ok(
        seen.every((event) => event.at <= finished),
        "progress arrives before the result",
      );
    } finally {
      agent.off("tool-progress", listener);
    }
  });

  it("ends its HTTP session on close and leaves the server running for the next client", async () => {
    await agent.close();
    await eventually(
      () => /Received session termination request/.test(server.stdout()),
      5_000,
      "the session's DELETE",
    );
    assert.equal(server.running(), true);
    const next = await mcpAgent(
      { everything: { type: "http", url: server.url("/mcp") } },
      { policy: { mode: "bypass" }, strict: true },
    );
    try {
      const { result } = await next.callTool("mcp__everything__echo", { message: "again" });
      assert.equal(textOf(result.content), "Echo: again");
    } finally {
      await next.close();
    }
    assert.equal(server.running(), true);
  });
});

describe("MCP over legacy HTTP+SSE against server-everything", () => {
  let server: HttpServerProcess;

  before(async () => {
    server = await startHttpServer({ script: EVERYTHING, args: ["sse"] });
  });

  after(async () => {
    await server?.stop();
  });

  it("discovers the tools and calls echo over an SSE endpoint", async () => {
    const agent = await mcpAgent(
      { legacy: { type: "sse", url: server.url("/sse") } },
      { policy: { mode: "bypass" }, strict: true },
    );
    try {
      const echo = agent.registry.get("mcp__legacy__echo");
      assert.ok(echo, "echo is registered");
      assert.equal(echo.definition.source, "mcp:legacy");
      assert.match(sourceStatus(agent, "legacy").parts?.[0]?.message ?? "", /, sse\)$/);
      const { result } = await agent.callTool("mcp__legacy__echo", { message: "over sse" });
      assert.equal(result.ok, true, JSON.stringify(result.error));
      assert.equal(textOf(result.content), "Echo: over sse");
    } finally {
      await agent.close();
    }
    assert.equal(server.running(), true);
  });
});

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

describe("HTTP sessions the server lost", () => {
  for (const status of [404, 400]) {
    it(`starts a new session and sends the call again when the server answers ${status} for a lost session`, async () => {
      const log = await scratch();
      const server = await startHttpServer({
        script: fixture("http-sessions"),
        env: { FIXTURE_LOG: log.log, FIXTURE_UNKNOWN_SESSION_STATUS: String(status) },
      });
      const agent = await mcpAgent(
        { s: { type: "http", url: server.url("/mcp") } },
        { policy: { mode: "bypass" } },
      );
      try {
        assert.equal(
          textOf((await agent.callTool("mcp__s__echo", { text: "one" })).result.content),
          "one",
        );
        await agent.callTool("mcp__s__forget", {});
        await new Promise((resolve) => setTimeout(resolve, 50));
        const after = await agent.callTool("mcp__s__echo", { text: "two" });
        assert.equal(after.result.ok, true, JSON.stringify(after.result));
        assert.equal(textOf(after.result.content), "two");
        const lines = await log.lines();
        assert.equal(lines.filter((line) => line === "initialize").length, 2, lines.join(", "));
        assert.deepEqual(
          lines.filter((line) => line.startsWith("call")),
          ["call echo", "call forget", "call echo"],
          "the lost call never ran, the resent one ran once",
        );
        assert.ok(agent.diagnostics().some((d) => d.code === "reconnected"));
      } finally {
        await agent.close();
        await server.stop();
        await log.cleanup();
      }
    });
  }
});
