import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { LoadedConfig } from "@pseudoclaude/core";
import { DefaultRedactor, REDACTED } from "@pseudoclaude/core/plugin";
import { loadServers } from "../src/index.js";

async function withMcpJson(
  json: string,
  texts: { user?: string; project?: string },
  body: (
    result: ReturnType<typeof loadServers> & { file: string; redactor: DefaultRedactor },
  ) => void,
  env: NodeJS.ProcessEnv = {},
) {
  const workspace = await mkdtemp(path.join(os.tmpdir(), "pseudoclaude-mcpjson-"));
  try {
    const file = path.join(workspace, ".mcp.json");
    await writeFile(file, json);
    const redactor = new DefaultRedactor();
    // The user approved the workspace's servers; unapproved ones are covered below.
    const result = loadServers(LoadedConfig.fromTexts(texts), {
      workspace,
      redactor,
      env,
      consent: { isApproved: () => true },
    });
    body({ ...result, file, redactor });
  } finally {
    await rm(workspace, { recursive: true, force: true });
  }
}

const CLAUDE_STYLE = `{
  "mcpServers": {
    "files": {
      "command": "\${NODE_BIN:-node}",
      "args": ["server.js", "--root", "\${ROOT}"],
      "env": { "API_KEY": "\${API_KEY}" }
    },
    "docs": {
      "type": "streamable-http",
      "url": "https://\${DOCS_HOST:-docs.example.com}/mcp",
      "headers": { "Authorization": "Bearer \${DOCS_TOKEN}" }
    },
    "events": { "type": "sse", "url": "https://events.example.com/sse" }
  }
}
`;

describe(".mcp.json", () => {
  it("reads the shared mcpServers format as project servers, expanding ${VAR} and ${VAR:-default}", async () => {
    await withMcpJson(
      CLAUDE_STYLE,
      {},
      ({ servers, diagnostics, file, redactor }) => {
        assert.deepEqual(diagnostics, []);
        const byName = Object.fromEntries(servers.map((server) => [server.name, server]));
        assert.equal(byName.files?.transport, "stdio");
        assert.equal(byName.files?.layer, "project");
        assert.equal(byName.files?.command, "node", "the default after :-");
        assert.deepEqual(byName.files?.args, ["server.js", "--root", "/srv"]);
        assert.deepEqual(byName.files?.env, { API_KEY: "k-123" });
        assert.equal(byName.docs?.transport, "http", "streamable-http is our http");
        assert.equal(byName.docs?.url, "https://docs.example.com/mcp");
        assert.deepEqual(byName.docs?.headers, { Authorization: "Bearer t-456" });
        assert.equal(byName.events?.transport, "sse");
        assert.equal(redactor.redact("Bearer t-456"), REDACTED, "header values are secrets");
        assert.ok(file.endsWith(".mcp.json"));
      },
      { ROOT: "/srv", API_KEY: "k-123", DOCS_TOKEN: "t-456" },
    );
  });

  it("takes a server named in both from our own project config, saying so at its line in .mcp.json", async () => {
    await withMcpJson(
      CLAUDE_STYLE,
      { project: "mcp_servers:\n  docs:\n    command: our-docs-server\n" },
      ({ servers, diagnostics, file }) => {
        const docs = servers.find((server) => server.name === "docs");
        assert.equal(docs?.transport, "stdio");
        assert.equal(docs?.command, "our-docs-server");
        const note = diagnostics.find((diagnostic) => diagnostic.code === "mcp_json_shadowed");
        assert.equal(note?.severity, "info");
        assert.equal(note?.file, file);
        assert.equal(note?.line, 8);
        assert.equal(note?.column, 13);
        assert.match(
          note?.message ?? "",
          /Server "docs" is in both \.mcp\.json and <project>; the entry of <project> is used/,
        );
      },
      { ROOT: "/srv", API_KEY: "k", DOCS_TOKEN: "t" },
    );
  });

  it("replaces a user server of the same name, as a project layer does", async () => {
    await withMcpJson(
      '{ "mcpServers": { "files": { "command": "project-files" } } }',
      { user: "mcp_servers:\n  files:\n    command: user-files\n  mine:\n    command: mine\n" },
      ({ servers }) => {
        assert.deepEqual(
          servers.map((server) => [server.name, server.command, server.layer]),
          [
            ["files", "project-files", "project"],
            ["mine", "mine", "user"],
          ],
        );
      },
    );
  });

  it("reports broken JSON at its line and column and keeps the servers of our own files", async () => {
    await withMcpJson(
      '{\n  "mcpServers": {\n    "files": { "command": "x", }\n  }\n',
      { user: "mcp_servers:\n  mine:\n    command: mine\n" },
      ({ servers, diagnostics, file }) => {
        assert.deepEqual(
          servers.map((server) => server.name),
          ["mine"],
        );
        const broken = diagnostics.find((diagnostic) => diagnostic.code === "config_yaml_error");
        assert.equal(broken?.file, file);
        assert.equal(broken?.source, "mcp");
        assert.equal(typeof broken?.line, "number");
        assert.equal(typeof broken?.column, "number");
        assert.match(broken?.message ?? "", /^Broken JSON in \.mcp\.json; this layer is ignored/);
      },
    );
  });

  it("warns about keys other agents add, honours disabled, and validates each server with positions", async () => {
    await withMcpJson(
      '{\n  "mcpServers": {\n    "a": { "command": "x", "autoApprove": ["t"] },\n    "b": { "command": "y", "disabled": true },\n    "c": { "type": "stdio" }\n  }\n}\n',
      {},
      ({ servers, disabled, diagnostics, file }) => {
        assert.deepEqual(
          servers.map((server) => server.name),
          ["a"],
        );
        assert.deepEqual(disabled, ["b"]);
        assert.deepEqual(
          diagnostics.map((diagnostic) => [
            diagnostic.code,
            diagnostic.severity,
            diagnostic.item,
            diagnostic.line,
          ]),
          [
            ["mcp_json_unknown_key", "warning", "a", 3],
            ["config_invalid", "error", "c", 5],
          ],
        );
        assert.ok(diagnostics.every((diagnostic) => diagnostic.file === file));
      },
    );
  });

  it("keeps the ${VAR}s of an unapproved server unexpanded, and still asks for it", async () => {
    const workspace = await mkdtemp(path.join(os.tmpdir(), "pseudoclaude-mcpjson-"));
    try {
      await writeFile(
        path.join(workspace, ".mcp.json"),
        '{ "mcpServers": { "api": { "type": "http", "url": "${API_BASE:-https://api.example.com}/mcp?key=${API_KEY}" } } }',
      );
      const redactor = new DefaultRedactor();
      const result = loadServers(LoadedConfig.empty(), {
        workspace,
        redactor,
        env: { API_KEY: "secret-key-value-42" },
      });
      const [api] = result.servers;
      assert.equal(api?.url, "${API_BASE:-https://api.example.com}/mcp?key=${API_KEY}");
      assert.equal(api?.approval?.kind, "mcp_server");
      assert.deepEqual(api?.approval?.effects, [
        "sends the agent's calls to ${API_BASE:-https://api.example.com}/mcp?key=${API_KEY}",
        "passes it your API_BASE, API_KEY",
      ]);
      assert.ok(!JSON.stringify(result).includes("secret-key-value-42"));
    } finally {
      await rm(workspace, { recursive: true, force: true });
    }
  });

  it("is not read when the plugin is told not to", async () => {
    const workspace = await mkdtemp(path.join(os.tmpdir(), "pseudoclaude-mcpjson-"));
    try {
      await writeFile(
        path.join(workspace, ".mcp.json"),
        '{ "mcpServers": { "files": { "command": "x" } } }',
      );
      const result = loadServers(LoadedConfig.empty(), {
        workspace,
        redactor: new DefaultRedactor(),
        mcpJson: false,
      });
      assert.deepEqual(result.servers, []);
    } finally {
      await rm(workspace, { recursive: true, force: true });
    }
  });
});
