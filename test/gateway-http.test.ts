// `pseudoclaude serve --mcp --http` as a real process, driven over Streamable HTTP by the official
// SDK clients of both lines: the same cases as stdio, then what HTTP adds: a bearer token, the
// OAuth resource-server mode with its protected resource metadata, and the Host check.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { runCli } from "./support/cli.js";
import { describeGatewayCases, text } from "./support/gateway-cases.js";
import { CLIENT_KINDS, connectClient } from "./support/gateway-clients.js";
import { type GatewayProcess, startHttpGateway } from "./support/gateway-process.js";
import { createGatewayWorkspace, type GatewayWorkspace } from "./support/gateway-workspace.js";
import { type JwtIssuer, startJwtIssuer } from "./support/jwt-issuer.js";

const TOKEN = "gateway-test-token-0123456789";

for (const kind of CLIENT_KINDS)
  describeGatewayCases("http", kind, async () => {
    const workspace = await createGatewayWorkspace();
    const gateway = await startHttpGateway(workspace, [], { PSEUDOCLAUDE_GATEWAY_TOKEN: TOKEN });
    return {
      workspace,
      connection: { http: { url: gateway.url, token: TOKEN } },
      close: async () => {
        assert.equal(await gateway.stop(), 130, "Ctrl-C stops it with 130");
      },
    };
  });

describe("gateway over http: who may call", () => {
  let workspace: GatewayWorkspace;
  let gateway: GatewayProcess;
  before(async () => {
    workspace = await createGatewayWorkspace();
    gateway = await startHttpGateway(workspace);
  });
  after(async () => {
    await gateway?.stop();
    await workspace?.cleanup();
  });

  test("it listens on 127.0.0.1 with a new token it prints once", () => {
    assert.match(gateway.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    assert.equal(gateway.auth, "token");
    assert.ok((gateway.token ?? "").length >= 32);
  });

  for (const kind of CLIENT_KINDS)
    test(`${kind}: refused without the token, served with it`, async () => {
      await assert.rejects(
        connectClient(kind, { http: { url: gateway.url } }),
        /401|authoriz|invalid_token/i,
      );
      await assert.rejects(
        connectClient(kind, { http: { url: gateway.url, token: "not-the-token-at-all-000" } }),
        /401|authoriz|invalid_token/i,
      );
      const client = await connectClient(kind, {
        http: { url: gateway.url, token: gateway.token },
      });
      try {
        const result = await client.callTool("mcp__behaviours__echo", { text: "with a token" });
        assert.match(text(result), /with a token/);
      } finally {
        await client.close();
      }
    });

  test("a request without a token gets 401 with a bearer challenge", async () => {
    const response = await fetch(gateway.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    assert.equal(response.status, 401);
    assert.match(response.headers.get("www-authenticate") ?? "", /^Bearer /);
  });

  test("a foreign Host header is refused (DNS rebinding)", async () => {
    const { request } = await import("node:http");
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(gateway.url, {
        method: "POST",
        headers: { host: "attacker.example:80", authorization: `Bearer ${gateway.token}` },
      });
      req.on("response", (response) => {
        response.resume();
        resolve(response.statusCode);
      });
      req.on("error", reject);
      req.end("{}");
    });
    assert.equal(status, 403);
  });
});

describe("gateway over http: OAuth resource server", () => {
  let workspace: GatewayWorkspace;
  let issuer: JwtIssuer;
  let gateway: GatewayProcess;
  before(async () => {
    issuer = await startJwtIssuer();
    workspace = await createGatewayWorkspace();
    gateway = await startHttpGateway(workspace, [
      "--oauth-issuer",
      issuer.issuer,
      "--oauth-scope",
      "mcp:tools",
    ]);
  });
  after(async () => {
    await gateway?.stop();
    await issuer?.close();
    await workspace?.cleanup();
  });

  test("it publishes its protected resource metadata (RFC 9728)", async () => {
    const url = new URL(gateway.url);
    const response = await fetch(new URL("/.well-known/oauth-protected-resource/mcp", url));
    assert.equal(response.status, 200);
    const metadata = (await response.json()) as Record<string, unknown>;
    assert.equal(metadata.resource, gateway.url);
    assert.deepEqual(metadata.authorization_servers, [issuer.issuer]);
    const refused = await fetch(gateway.url, {
      method: "POST",
      body: "{}",
      headers: { "content-type": "application/json" },
    });
    assert.equal(refused.status, 401);
    assert.match(
      refused.headers.get("www-authenticate") ?? "",
      /resource_metadata="[^"]*oauth-protected-resource\/mcp"/,
    );
  });

  /** What the gateway answers a first request carrying `token`: status and the error it names. */
  async function answerTo(token: string): Promise<{ status: number; error: string }> {
    const response = await fetch(gateway.url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "raw", version: "1" },
        },
      }),
    });
    await response.body?.cancel();
    const challenge = response.headers.get("www-authenticate") ?? "";
    return { status: response.status, error: /error="([^"]+)"/.exec(challenge)?.[1] ?? "" };
  }

  for (const kind of ["v1", "v2@2026-07-28"] as const)
    test(`${kind}: a token for this gateway with the scope is served; others are refused`, async () => {
      // A principal and a text of this client's own: its audit record is told from any other.
      const principal = `person-${kind.replace(/\W/g, "-")}@example.com`;
      const marker = `oauth via ${kind}`;
      const good = await issuer.issue({ aud: gateway.url, scope: "mcp:tools", sub: principal });
      const client = await connectClient(kind, { http: { url: gateway.url, token: good } });
      try {
        const result = await client.callTool("mcp__behaviours__echo", { text: marker });
        assert.match(text(result), new RegExp(marker));
      } finally {
        await client.close();
      }
      const otherAudience = await issuer.issue({
        aud: "http://127.0.0.1:1/mcp",
        scope: "mcp:tools",
      });
      assert.deepEqual(await answerTo(otherAudience), { status: 401, error: "invalid_token" });
      await assert.rejects(
        connectClient(kind, { http: { url: gateway.url, token: otherAudience } }),
      );
      const noScope = await issuer.issue({ aud: gateway.url });
      assert.deepEqual(await answerTo(noScope), { status: 403, error: "insufficient_scope" });
      await assert.rejects(connectClient(kind, { http: { url: gateway.url, token: noScope } }));
      // The audit is written after the answer: wait for this client's record.
      let call: Record<string, unknown> | undefined;
      for (const started = Date.now(); !call && Date.now() - started < 5_000; ) {
        call = (await workspace.auditRecords()).find((record) =>
          JSON.stringify(record).includes(marker),
        );
        if (!call) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.ok(call, "this client's call is in the audit");
      assert.equal((call.who as { principal?: string } | undefined)?.principal, principal);
    });
});

describe("serve --mcp: mistakes on the command line", () => {
  let workspace: GatewayWorkspace;
  before(async () => {
    workspace = await createGatewayWorkspace();
  });
  after(async () => {
    await workspace?.cleanup();
  });
  const cases: Array<[string, string[], RegExp]> = [
    [
      "--no-auth off loopback",
      ["--mcp", "--http", "0", "--no-auth", "--host", "0.0.0.0"],
      /--no-auth serves only a loopback address/,
    ],
    ["--port with --mcp", ["--mcp", "--port", "1"], /--mcp listens on --http PORT/],
    ["--http without --mcp", ["--http", "0"], /--http needs --mcp/],
    ["--mcp with --durable", ["--mcp", "--durable", "restate"], /two different servers/],
    ["--host over stdio", ["--mcp", "--host", "127.0.0.1"], /--host applies to the HTTP gateway/],
    ["a short token", ["--mcp", "--http", "0"], /at least 16 characters/],
  ];
  for (const [name, args, message] of cases)
    test(`${name}: exit 2 and what to do`, async () => {
      const run = await runCli(workspace, ["serve", ...args], {
        env: name === "a short token" ? { PSEUDOCLAUDE_GATEWAY_TOKEN: "short" } : {},
        timeoutMs: 30_000,
      });
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, message);
    });
});
