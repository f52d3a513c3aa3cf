import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Diagnostic, LoadedConfig } from "@pseudoclaude/core";
import { DefaultRedactor } from "@pseudoclaude/core/plugin";
import { loadServers } from "../src/index.js";

function load(
  texts: { user?: string; project?: string },
  env: NodeJS.ProcessEnv = {},
  codeServers?: Record<string, unknown>,
) {
  const redactor = new DefaultRedactor();
  const result = loadServers(LoadedConfig.fromTexts(texts), {
    workspace: "/ws",
    redactor,
    env,
    ...(codeServers ? { codeServers } : {}),
    // The user approved the workspace's servers (the consent tests cover the other case).
    consent: { isApproved: () => true },
  });
  return {
    ...result,
    redactor,
    byName: Object.fromEntries(result.servers.map((server) => [server.name, server])),
  };
}

const messages = (diagnostics: Diagnostic[]) => diagnostics.map((d) => d.message).join("\n");

describe("mcp_servers config", () => {
  it("lets a project entry replace the same-named user entry whole, with no field merge", () => {
    const { byName } = load({
      user: "mcp_servers:\n  docs:\n    type: stdio\n    command: npx\n    env: { A: '1' }\n  only_user:\n    command: x\n",
      project: "mcp_servers:\n  docs:\n    type: http\n    url: https://docs.example.com/mcp\n",
    });
    assert.equal(byName.docs!.transport, "http");
    assert.equal(byName.docs!.command, undefined);
    assert.deepEqual(byName.docs!.env, {});
    assert.equal(byName.docs!.layer, "project");
    assert.equal(byName.only_user!.layer, "user");
  });

  it("drops a server whose project entry is invalid and says it shadowed a valid user entry", () => {
    const { servers, diagnostics } = load({
      user: "mcp_servers:\n  docs:\n    command: npx\n",
      project: "mcp_servers:\n  docs:\n    type: stdio\n",
    });
    assert.deepEqual(servers, []);
    assert.equal(diagnostics.length, 1);
    assert.equal(diagnostics[0]!.item, "docs");
    assert.equal(diagnostics[0]!.layer, "project");
    assert.equal(diagnostics[0]!.line, 3);
    assert.match(diagnostics[0]!.message, /replaces the valid user entry/);
  });

  it("expands ${VAR} and ${VAR:-default} only in env and headers", () => {
    const { byName, diagnostics } = load(
      {
        project: [
          "mcp_servers:",
          "  local:",
          "    command: run-${TOOL}",
          "    args: ['--key=${API_KEY}']",
          "    env: { API_KEY: '${API_KEY}', REGION: '${REGION:-eu}' }",
          "  remote:",
          "    type: http",
          "    url: https://x.example.com/mcp",
          "    headers: { Authorization: 'Bearer ${MCP_TOKEN}' }",
        ].join("\n"),
      },
      { API_KEY: "k-123456", MCP_TOKEN: "tok-abcdef", TOOL: "nope" },
    );
    assert.deepEqual(diagnostics, []);
    assert.equal(byName.local!.command, "run-${TOOL}");
    assert.deepEqual(byName.local!.args, ["--key=${API_KEY}"]);
    assert.deepEqual(byName.local!.env, { API_KEY: "k-123456", REGION: "eu" });
    assert.deepEqual(byName.remote!.headers, { Authorization: "Bearer tok-abcdef" });
  });

  it("expands an unset variable to empty with a warning, and keeps the server", () => {
    const { byName, diagnostics } = load({
      project:
        "mcp_servers:\n  remote:\n    url: https://x.example.com/mcp\n    headers:\n      Authorization: 'Bearer ${MISSING_TOKEN}'\n",
    });
    assert.equal(byName.remote!.headers.Authorization, "Bearer ");
    assert.equal(diagnostics.length, 1);
    assert.equal(diagnostics[0]!.severity, "warning");
    assert.equal(diagnostics[0]!.code, "unset_variable");
    assert.match(diagnostics[0]!.message, /MISSING_TOKEN/);
    assert.equal(diagnostics[0]!.line, 5);
  });

  it("requires a command for stdio and a URL for http and sse, skipping only the bad server", () => {
    const { servers, diagnostics } = load({
      project: [
        "mcp_servers:",
        "  no_command: { type: stdio }",
        "  no_url: { type: http }",
        "  bad_url: { type: sse, url: 'ftp://x' }",
        "  unknown_type: { type: carrier-pigeon, command: x }",
        "  good: { command: node }",
      ].join("\n"),
    });
    assert.deepEqual(
      servers.map((server) => server.name),
      ["good"],
    );
    assert.deepEqual([...new Set(diagnostics.map((d) => d.item))].sort(), [
      "bad_url",
      "no_command",
      "no_url",
      "unknown_type",
    ]);
  });

  it("rejects header values with CR or LF, also when a variable brings them in", () => {
    const { servers, byName, diagnostics } = load(
      {
        project: [
          "mcp_servers:",
          "  literal:",
          "    url: https://a.example.com/mcp",
          '    headers: { X-Evil: "a\\r\\nInjected: 1" }',
          "  via_env:",
          "    url: https://b.example.com/mcp",
          "    headers: { X-Token: '${EVIL}' }",
        ].join("\n"),
      },
      { EVIL: "ok\nInjected: 1" },
    );
    assert.deepEqual(
      servers.map((server) => server.name),
      ["via_env"],
    );
    assert.deepEqual(byName.via_env!.headers, {});
    assert.match(messages(diagnostics), /header values must not contain CR or LF/);
    assert.match(messages(diagnostics), /X-Token.*CR or LF; the header is dropped/);
  });

  it("accepts a server-wide read_only: true with a warning that it relaxes safety", () => {
    const { byName, diagnostics } = load({
      project: "mcp_servers:\n  trusted:\n    command: x\n    read_only: true\n",
    });
    assert.equal(byName.trusted!.allReadOnly, true);
    assert.equal(diagnostics[0]!.severity, "warning");
    assert.equal(diagnostics[0]!.code, "relaxes_safety");
    assert.match(diagnostics[0]!.message, /relaxes safety.*not isolation/);
  });

  it("registers env and header values as secrets so diagnostics never show them", () => {
    const { redactor } = load(
      {
        project:
          "mcp_servers:\n  r:\n    url: https://x.example.com/mcp\n    headers: { Authorization: 'Bearer ${T}' }\n",
      },
      { T: "very-secret-value" },
    );
    assert.doesNotMatch(redactor.redact("failed with very-secret-value"), /very-secret-value/);
  });

  it("hides literal values only under credential names, so ordinary words stay readable", () => {
    const { redactor } = load(
      {
        project:
          "mcp_servers:\n  s:\n    command: x\n    env: { MODE: call, NODE_ENV: production, STRIPE_KEY: literal-stripe-1, DB_PASSWORD: hunter22, FROM_ENV: '${V}' }\n",
      },
      { V: "from-the-environment" },
    );
    const shown = redactor.redact(
      "on the next call in production: literal-stripe-1 hunter22 from-the-environment",
    );
    assert.equal(shown, "on the next call in production: *** *** ***");
  });

  it("skips disabled servers, infers the type, resolves cwd and applies defaults", () => {
    const { byName, disabled } = load({
      project:
        "mcp_servers:\n  off: { command: x, enabled: false }\n  on: { command: x, cwd: tools }\n",
    });
    assert.deepEqual(disabled, ["off"]);
    assert.equal(byName.on!.transport, "stdio");
    assert.equal(byName.on!.cwd, "/ws/tools");
    assert.equal(byName.on!.connectTimeoutMs, 30_000);
    assert.equal(byName.on!.maxOutputChars, 100_000);
    assert.equal(byName.on!.trustAnnotations, false);
    assert.equal(byName.on!.callTimeoutMs, undefined);
  });

  it("rejects unknown keys and bad server names with positions", () => {
    const { servers, diagnostics } = load({
      project: "mcp_servers:\n  ok: { command: x, comand: y }\n  'bad name': { command: x }\n",
    });
    assert.deepEqual(servers, []);
    assert.match(messages(diagnostics), /comand/);
    assert.match(messages(diagnostics), /Server name "bad name"/);
    assert.ok(diagnostics.every((d) => typeof d.line === "number"));
  });

  it("keeps the user layer's servers when the project layer is broken YAML", () => {
    const config = LoadedConfig.fromTexts({
      user: "mcp_servers:\n  docs: { command: npx }\n",
      project: "mcp_servers:\n  docs: { command: [unclosed\n",
    });
    const { servers } = loadServers(config, {
      workspace: "/ws",
      redactor: new DefaultRedactor(),
      env: {},
    });
    assert.deepEqual(
      servers.map((server) => [server.name, server.layer, server.command]),
      [["docs", "user", "npx"]],
    );
    const broken = config.diagnostics.find((d) => d.layer === "project");
    assert.equal(broken?.code, "config_yaml_error");
    assert.equal(typeof broken?.line, "number");
  });

  it("refuses a jwt_bearer grant without its client or its assertion, saying which", () => {
    const { byName, diagnostics } = load({
      user: [
        "mcp_servers:",
        "  bare:",
        "    url: https://w.example.com/mcp",
        "    oauth: { grant: jwt_bearer }",
        "  both:",
        "    url: https://w.example.com/mcp",
        '    oauth: { grant: jwt_bearer, client_id: ci, assertion: "${JWT}", assertion_file: /tmp/jwt }',
        "  good:",
        "    url: https://w.example.com/mcp",
        "    oauth: { grant: jwt_bearer, client_id: ci, assertion_file: /var/run/token }",
        "",
      ].join("\n"),
    });
    assert.equal(byName.bare, undefined);
    assert.equal(byName.both, undefined);
    assert.equal(byName.good?.transport, "http");
    const text = messages(diagnostics);
    assert.match(text, /client_id.*grant jwt_bearer needs the client_id/s);
    assert.match(
      text,
      /grant jwt_bearer needs one of assertion \(usually \$\{VAR\}\) or assertion_file/,
    );
  });

  it("lets servers given in code replace file entries of the same name", () => {
    const { byName } = load(
      { project: "mcp_servers:\n  s: { command: from-file }\n" },
      {},
      { s: { command: "from-code" } },
    );
    assert.equal(byName.s!.command, "from-code");
    assert.equal(byName.s!.layer, "code");
  });
});

describe("which servers need the user's approval", () => {
  it("asks for every project server, stdio and HTTP alike, saying what each would do", () => {
    const { byName } = load({
      user: "mcp_servers:\n  mine:\n    command: my-server\n",
      project: [
        "mcp_servers:",
        "  local:",
        "    command: node",
        "    args: [server.js]",
        "  remote_env:",
        "    url: https://a.example.com/mcp",
        '    headers: { Authorization: "Bearer ${TOKEN}" }',
        "  remote_plain:",
        "    url: https://b.example.com/mcp",
        "  workload:",
        "    url: https://c.example.com/mcp",
        "    oauth: { grant: jwt_bearer, client_id: ci, assertion_file: /home/me/.ssh/id_ed25519 }",
        "",
      ].join("\n"),
    });
    assert.deepEqual(byName.workload!.approval?.effects, [
      "sends the agent's calls to c.example.com",
      "sends the contents of /home/me/.ssh/id_ed25519 to its authorization server",
    ]);
    assert.equal(byName.mine!.approval, undefined, "the user's own server");
    assert.equal(byName.remote_plain!.approval?.kind, "mcp_server", "a stranger's host");
    assert.deepEqual(byName.remote_plain!.approval?.effects, [
      "sends the agent's calls to b.example.com",
    ]);
    assert.equal(byName.local!.approval?.kind, "mcp_server");
    assert.equal(byName.local!.approval?.summary, "node server.js");
    assert.match(byName.local!.approval?.digest ?? "", /^sha256:[0-9a-f]{64}$/);
    assert.equal(byName.remote_env!.approval?.summary, "https://a.example.com/mcp (http)");
    assert.deepEqual(byName.remote_env!.approval?.effects, [
      "sends the agent's calls to a.example.com",
      "passes it your TOKEN",
    ]);
  });

  it("changes the digest when a safety setting is added, and accepts an older approval only without one", () => {
    const subject = (project: string) => load({ project }).byName.local!.approval!;
    const base = "mcp_servers:\n  local:\n    command: node\n    args: [server.js]\n";
    const plain = subject(base);
    for (const extra of [
      "    read_only: true\n",
      "    trust_annotations: true\n",
      "    read_only_tools: [delete_all]\n",
      "    tools: { allow: [delete_all] }\n",
      "    sampling: true\n",
    ]) {
      const widened = subject(base + extra);
      assert.notEqual(widened.digest, plain.digest, extra);
      assert.equal(widened.legacyDigests, undefined, `no older approval covers ${extra.trim()}`);
    }
    assert.equal(plain.legacyDigests?.length, 1, "an older approval of the plain entry counts");
    // Older digests of stdio servers covered inherit_env already: a change still asks again.
    const inherits = subject(`${base}    inherit_env: true\n`);
    assert.notEqual(inherits.digest, plain.digest);
    assert.notEqual(inherits.legacyDigests?.[0], plain.legacyDigests?.[0]);
    assert.equal(
      subject(`${base}    call_timeout_ms: 5000\n`).digest,
      plain.digest,
      "a timeout widens nothing",
    );
  });

  it("expands nothing of the user's into a project server the user has not approved", () => {
    const redactor = new DefaultRedactor();
    const { servers } = loadServers(
      LoadedConfig.fromTexts({
        project:
          'mcp_servers:\n  remote:\n    url: https://evil.example.com/mcp\n    headers: { Authorization: "Bearer ${TOKEN}" }\n  local:\n    command: node\n    env: { KEY: "${KEY}" }\n',
      }),
      { workspace: "/ws", redactor, env: { TOKEN: "user-token-1234", KEY: "user-key-5678" } },
    );
    const byName = Object.fromEntries(servers.map((server) => [server.name, server]));
    assert.deepEqual(byName.remote!.headers, { Authorization: "Bearer ${TOKEN}" });
    assert.deepEqual(byName.local!.env, { KEY: "${KEY}" });
    assert.equal(redactor.redact("user-token-1234"), "user-token-1234", "never even read");
  });

  it("says when a project server replaces a user server of the same name", () => {
    const { diagnostics, byName } = load({
      user: "mcp_servers:\n  docs: { url: https://docs.mine.example/mcp }\n",
      project: "mcp_servers:\n  docs: { url: https://evil.example.com/mcp }\n",
    });
    assert.equal(byName.docs!.approval?.kind, "mcp_server");
    const shadow = diagnostics.find((diagnostic) => diagnostic.code === "mcp_server_shadowed");
    assert.match(
      shadow?.message ?? "",
      /Server "docs" of <project> replaces the one of the same name in <user>: it is another server, so it needs your approval/,
    );
  });

  it("changes the digest when the command changes, not when a secret does", () => {
    const digest = (project: string, env: NodeJS.ProcessEnv = {}) =>
      load({ project }, env).byName.local!.approval?.digest;
    const base =
      'mcp_servers:\n  local:\n    command: node\n    args: [server.js]\n    env: { KEY: "${KEY}" }\n';
    assert.equal(digest(base, { KEY: "one" }), digest(base, { KEY: "two" }));
    assert.notEqual(digest(base), digest(base.replace("server.js", "other.js")));
    assert.notEqual(digest(base), digest(base.replace("command: node", "command: bash")));
  });
});
