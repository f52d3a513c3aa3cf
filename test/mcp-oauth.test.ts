// OAuth end to end with the real CLI against a local authorization server and MCP server
// (real HTTP on 127.0.0.1): needs-auth, the loopback login without a browser, token storage,
// refresh on expiry, refusals, and no token in any output.
import assert from "node:assert/strict";
import { existsSync, statSync } from "node:fs";
import { chmod, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import { createAgent, textOf } from "@pseudoclaude/core";
import { McpManager, MemoryCredentialStore, mcp } from "@pseudoclaude/plugin-mcp";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import { type CliRun, parseJson, runCli, startCli } from "./support/cli.js";
import {
  type OAuthServer,
  type OAuthServerOptions,
  startOAuthServer,
} from "./support/oauth-server.js";

const TIMEOUT = { timeout: 60_000 };

interface ToolsJson {
  tools: Array<{ name: string }>;
  sources: Array<{ id: string; state: string; parts?: Array<{ state: string; message?: string }> }>;
  diagnostics: Array<{ code?: string; severity: string; message: string }>;
}

async function withOAuth(
  body: (context: {
    workspace: TempWorkspace;
    server: OAuthServer;
    outputs: CliRun[];
    run(args: string[]): Promise<CliRun>;
  }) => Promise<void>,
  options: OAuthServerOptions = {},
): Promise<void> {
  const workspace = await createTempWorkspace("pc-oauth-");
  const server = await startOAuthServer(options);
  const outputs: CliRun[] = [];
  try {
    await workspace.writeConfig("user", `mcp_servers:\n  docs:\n    url: ${server.url}\n`);
    await body({
      workspace,
      server,
      outputs,
      run: async (args) => {
        const result = await runCli(workspace, args, { env: { PSEUDOCLAUDE_NO_BROWSER: "1" } });
        outputs.push(result);
        return result;
      },
    });
    // No access or refresh token may appear in anything the CLI printed.
    for (const output of outputs)
      for (const token of server.issued)
        assert.ok(
          !`${output.stdout}${output.stderr}`.includes(token),
          "a token leaked into the output",
        );
  } finally {
    await server.close();
    await workspace.cleanup();
  }
}

/** `mcp login docs`, with the test as the browser: open the printed URL, follow its redirect. */
async function login(workspace: TempWorkspace, outputs: CliRun[]): Promise<CliRun> {
  const running = startCli(workspace, ["mcp", "login", "docs"], {
    env: { PSEUDOCLAUDE_NO_BROWSER: "1" },
  });
  const deadline = Date.now() + 20_000;
  let url: string | undefined;
  while (!url && Date.now() < deadline) {
    url = /^ {2}(http:\/\/\S+\/authorize\S*)$/m.exec(running.stderr())?.[1];
    if (!url) await new Promise((resolve) => setTimeout(resolve, 25));
  }
  if (url) {
    const page = await fetch(url); // follows the 302 to the CLI's loopback listener
    assert.match(await page.text(), /Logged in\. You can close this window\./);
  }
  const result = await running.done;
  outputs.push(result);
  return result;
}

const docs = (json: ToolsJson) => json.sources.find((source) => source.id === "mcp:docs");

describe("MCP servers behind OAuth", () => {
  it(
    "lists a server nobody logged in to as needs-auth, with the command to run",
    TIMEOUT,
    async () => {
      await withOAuth(async ({ run, server }) => {
        const result = await run(["tools", "--json", "--strict"]);
        assert.equal(result.code, 0, result.stderr);
        const json = parseJson<ToolsJson>(result);
        assert.equal(docs(json)?.state, "needs-auth");
        assert.match(docs(json)?.parts?.[0]?.message ?? "", /Run: pseudoclaude mcp login docs/);
        const note = json.diagnostics.find(
          (diagnostic) => diagnostic.code === "mcp_server_needs_auth",
        );
        assert.equal(note?.severity, "info");
        assert.ok(!server.events.includes("authorize"), "nobody was sent to log in");
      });
    },
  );

  it(
    "logs in through the loopback listener, stores the tokens privately, and uses them",
    TIMEOUT,
    async () => {
      await withOAuth(async ({ workspace, run, outputs, server }) => {
        const result = await login(workspace, outputs);
        assert.equal(result.code, 0, result.stderr);
        assert.match(
          result.stdout,
          /Logged in to docs; the tokens are stored in .*oauth-credentials\.json/,
        );
        const file = path.join(workspace.home, ".PseudoClaude", "oauth-credentials.json");
        assert.equal(statSync(file).mode & 0o777, 0o600, "only the user can read it");
        assert.ok(
          !existsSync(path.join(workspace.root, ".PseudoClaude", "oauth-credentials.json")),
        );
        const stored = JSON.parse(await readFile(file, "utf8"));
        assert.ok(
          stored.servers[server.url]?.tokens?.access_token,
          "the token is kept for this server URL",
        );
        // The era probe met the 401: the login comes first, then the question again with the
        // token (both eras log in the same way), then the 2025 handshake this server speaks.
        assert.equal(server.probes.count, 1);
        assert.deepEqual(server.events.slice(0, 5), [
          "register",
          "authorize",
          "token authorization_code",
          "mcp server/discover",
          "mcp initialize",
        ]);
        // A CLI with a loopback redirect registers as a native client (SEP-837).
        assert.equal(server.registrations[0]?.application_type, "native");

        const ready = parseJson<ToolsJson>(await run(["tools", "--json"]));
        assert.equal(docs(ready)?.state, "ready");
        const call = await run(["call", "mcp__docs__whoami", "{}", "--json", "--yes"]);
        assert.equal(call.code, 0, call.stderr);
        assert.match(call.stdout, /an authorized caller/);

        const logout = await run(["mcp", "logout", "docs"]);
        assert.match(logout.stdout, /Logged out of docs/);
        assert.equal(
          docs(parseJson<ToolsJson>(await run(["tools", "--json"])))?.state,
          "needs-auth",
        );
      });
    },
  );

  it(
    "opens the browser where there is one (xdg-open on a desktop), which completes the login",
    TIMEOUT,
    async () => {
      await withOAuth(async ({ workspace, outputs, server }) => {
        // The "browser": an xdg-open first on PATH that records the URL and follows it.
        const opened = path.join(workspace.root, "opened.txt");
        const bin = path.join(workspace.root, "bin");
        await workspace.write(
          "bin/xdg-open",
          `#!${process.execPath}\nrequire("node:fs").writeFileSync(${JSON.stringify(opened)}, process.argv[2]);\nfetch(process.argv[2]).then((page) => page.text());\n`,
        );
        await chmod(path.join(bin, "xdg-open"), 0o755);
        const result = await runCli(workspace, ["mcp", "login", "docs"], {
          env: { DISPLAY: ":99", PATH: `${bin}${path.delimiter}${process.env.PATH ?? ""}` },
          unset: ["PSEUDOCLAUDE_NO_BROWSER", "WAYLAND_DISPLAY"],
        });
        outputs.push(result);
        assert.equal(result.code, 0, result.stderr);
        const url = await readFile(opened, "utf8");
        assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/authorize\?/);
        assert.ok(result.stderr.includes(`  ${url}`), "the URL is printed as well");
        assert.ok(server.events.includes("token authorization_code"), server.events.join(", "));
      });
    },
  );

  it("refreshes an expired token instead of asking again", TIMEOUT, async () => {
    await withOAuth(
      async ({ workspace, run, outputs, server }) => {
        assert.equal((await login(workspace, outputs)).code, 0);
        await new Promise((resolve) => setTimeout(resolve, 2_200));
        const call = await run(["call", "mcp__docs__whoami", "{}", "--json", "--yes"]);
        assert.equal(call.code, 0, call.stderr);
        assert.ok(server.events.includes("token refresh_token"), server.events.join(", "));
        assert.equal(
          server.events.filter((event) => event === "authorize").length,
          1,
          "no second login",
        );
      },
      { expiresIn: 1 },
    );
  });

  it(
    "a refused refresh puts the server in needs-auth instead of failing every call",
    TIMEOUT,
    async () => {
      await withOAuth(
        async ({ workspace, run, outputs, server }) => {
          assert.equal((await login(workspace, outputs)).code, 0);
          await new Promise((resolve) => setTimeout(resolve, 2_200));
          const result = await run(["tools", "--json", "--strict"]);
          assert.equal(result.code, 0, result.stderr);
          const json = parseJson<ToolsJson>(result);
          assert.ok(server.events.includes("token refresh_token"), server.events.join(", "));
          assert.equal(docs(json)?.state, "needs-auth");
          assert.match(docs(json)?.parts?.[0]?.message ?? "", /Run: pseudoclaude mcp login docs/);
          assert.ok(
            json.diagnostics.some((diagnostic) => diagnostic.code === "mcp_server_needs_auth"),
          );
        },
        { expiresIn: 1, refuseRefresh: true },
      );
    },
  );

  it(
    "refuses a resource in the metadata that is not this server, before any login",
    TIMEOUT,
    async () => {
      await withOAuth(
        async ({ workspace, outputs, server }) => {
          const result = await login(workspace, outputs);
          assert.notEqual(result.code, 0);
          assert.match(result.stderr, /does not match/);
          assert.ok(!server.events.includes("authorize"));
        },
        { resource: "https://evil.example.com/mcp" },
      );
    },
  );

  it("says which OAuth step failed and what the server answered", TIMEOUT, async () => {
    await withOAuth(
      async ({ workspace, outputs }) => {
        const result = await login(workspace, outputs);
        assert.notEqual(result.code, 0);
        assert.match(
          result.stderr,
          /OAuth token failed at http:\/\/127\.0\.0\.1:\d+\/token: the server answered HTTP 400 \{"error":"invalid_grant","error_description":"the code has expired"\}/,
        );
      },
      { refuseTokens: true },
    );
  });

  it("refuses an authorization server that does not offer S256 PKCE", TIMEOUT, async () => {
    await withOAuth(
      async ({ workspace, outputs, server }) => {
        const result = await login(workspace, outputs);
        assert.notEqual(result.code, 0);
        assert.match(result.stderr, /PKCE|code_challenge|S256/i);
        assert.ok(!server.events.includes("authorize"));
      },
      { pkce: false },
    );
  });

  it(
    "logs in from code with McpManager.login, and the server's tools join the agent",
    TIMEOUT,
    async () => {
      const workspace = await createTempWorkspace("pc-oauth-code-");
      const server = await startOAuthServer({ echoToken: true });
      const credentials = new MemoryCredentialStore();
      const agent = await createAgent({
        workspace: workspace.root,
        config: { homeDir: workspace.home },
        plugins: [mcp({ servers: { docs: { url: server.url } }, credentials })],
        policy: { mode: "bypass" },
      });
      try {
        const manager = agent.resolve<McpManager>(McpManager);
        assert.equal(manager.servers()[0]?.state, "needs-auth");
        const shown: URL[] = [];
        const report = await manager.login("docs", {
          show: (url) => {
            shown.push(url);
            void fetch(url).then((page) => page.text()); // the browser
          },
        });
        assert.equal(report.state, "ready");
        assert.equal(shown.length, 1);
        assert.ok(credentials.get(server.url).tokens?.access_token, "the tokens were stored");
        const { result } = await agent.callTool("mcp__docs__whoami", {});
        assert.match(textOf(result.content), /an authorized caller/);
        // A token obtained while the agent runs is a secret like a configured one: a server
        // that echoes it gets *** back.
        const token = String(credentials.get(server.url).tokens?.access_token);
        const echoed = await agent.callTool("mcp__docs__echo_token", {});
        assert.equal(textOf(echoed.result.content), "you sent ***");
        assert.ok(!JSON.stringify(echoed).includes(token));
        await assert.rejects(
          manager.login("nope", { show: () => undefined }),
          /No MCP server named "nope" \(configured: docs\)/,
        );
      } finally {
        await agent.close();
        await server.close();
        await workspace.cleanup();
      }
    },
  );

  it(
    "a refresh refused mid-session: the call says to log in, later calls fail at once, a login brings it back",
    TIMEOUT,
    async () => {
      const workspace = await createTempWorkspace("pc-oauth-lost-");
      const server = await startOAuthServer({ expiresIn: 1, refuseRefresh: true });
      const agent = await createAgent({
        workspace: workspace.root,
        config: { homeDir: workspace.home },
        plugins: [
          mcp({ servers: { docs: { url: server.url } }, credentials: new MemoryCredentialStore() }),
        ],
        policy: { mode: "bypass" },
      });
      const browser = { show: (url: URL) => void fetch(url).then((page) => page.text()) };
      const calls = () => server.events.filter((event) => event === "mcp tools/call").length;
      try {
        const manager = agent.resolve<McpManager>(McpManager);
        await manager.login("docs", browser);
        assert.equal((await agent.callTool("mcp__docs__whoami", {})).result.ok, true);
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        const lost = (await agent.callTool("mcp__docs__whoami", {})).result;
        assert.equal(lost.ok, false);
        assert.match(lost.error?.message ?? "", /needs you to log in again.*mcp login docs/);
        assert.equal(lost.metadata?.reason, "auth");
        assert.equal(manager.servers()[0]?.state, "needs-auth");
        assert.ok(
          agent.diagnostics().some((diagnostic) => diagnostic.code === "mcp_server_needs_auth"),
        );
        const before = calls();
        const again = (await agent.callTool("mcp__docs__whoami", {})).result;
        assert.match(again.error?.message ?? "", /needs you to log in again/);
        assert.equal(calls(), before, "the second call did not go to the server");
        assert.equal((await manager.login("docs", browser)).state, "ready");
        assert.equal((await agent.callTool("mcp__docs__whoami", {})).result.ok, true);
      } finally {
        await agent.close();
        await server.close();
        await workspace.cleanup();
      }
    },
  );
});
