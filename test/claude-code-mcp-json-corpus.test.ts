// Real public .mcp.json files (test/fixtures/claude-code-corpus/mcp-json, see PROVENANCE.md)
// read the way Claude Code reads them: every server Claude Code would start is one of ours, with
// the same name, transport, command, args, url, env and headers. The expected values come from
// the raw JSON and a small expansion written here, not from the plugin's reader. Through the
// real CLI, `mcp list --json` shows each of them as waiting for approval. Nothing is started:
// the servers are third parties' commands and hosts.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { LoadedConfig } from "@pseudoclaude/core";
import { DefaultRedactor } from "@pseudoclaude/core/plugin";
import { loadServers, type McpServerConfig } from "@pseudoclaude/plugin-mcp";
import { createTempWorkspace } from "@pseudoclaude/testing";
import { parseJson, runCli } from "./support/cli.js";

const TIMEOUT = { timeout: 60_000 };
const CORPUS = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "fixtures",
  "claude-code-corpus",
  "mcp-json",
);
const FOLDERS = readdirSync(CORPUS, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

/** The user's environment in these tests: a value for a variable and none for another. */
const ENV: NodeJS.ProcessEnv = { CORPUS_TOKEN: "corpus-token-value" };

type RawServer = {
  type?: string;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
  headers?: Record<string, string>;
};

/**
 * What Claude Code does to a string of the file: `${VAR}` and `${VAR:-default}` from the
 * environment; an unset variable without a default stays as written (Claude Code warns).
 */
function expand(text: string, env: NodeJS.ProcessEnv): string {
  return text.replace(/\$\{([^}]+)\}/g, (whole, content: string) => {
    const split = content.indexOf(":-");
    const name = split === -1 ? content : content.slice(0, split);
    const value = env[name];
    if (value !== undefined) return value;
    return split === -1 ? whole : content.slice(split + 2);
  });
}

const expandAll = (map: Record<string, string> | undefined, env: NodeJS.ProcessEnv) =>
  Object.fromEntries(Object.entries(map ?? {}).map(([key, value]) => [key, expand(value, env)]));

/** The server Claude Code would start for one entry, in the fields both of us have. */
function claudeCodeServer(name: string, raw: RawServer, env: NodeJS.ProcessEnv) {
  // Claude Code: `type` may be left out of a stdio entry; http and sse name their type.
  const transport = raw.type ?? "stdio";
  if (transport === "stdio")
    return {
      name,
      transport,
      command: expand(raw.command ?? "", env),
      args: (raw.args ?? []).map((arg) => expand(arg, env)),
      env: expandAll(raw.env, env),
    };
  return {
    name,
    transport,
    url: expand(raw.url ?? "", env),
    headers: expandAll(raw.headers, env),
  };
}

function ourServer(server: McpServerConfig) {
  if (server.transport === "stdio")
    return {
      name: server.name,
      transport: server.transport,
      command: server.command,
      args: server.args,
      env: server.env,
    };
  return {
    name: server.name,
    transport: server.transport,
    url: server.url,
    headers: server.headers,
  };
}

const rawServers = (folder: string): Record<string, RawServer> => {
  const parsed = JSON.parse(readFileSync(path.join(CORPUS, folder, ".mcp.json"), "utf8")) as {
    mcpServers: Record<string, RawServer>;
  };
  return parsed.mcpServers;
};

describe("real .mcp.json files written for Claude Code", () => {
  it("the corpus has its files, each with its repository's licence", () => {
    assert.ok(FOLDERS.length >= 6, `found ${FOLDERS.join(", ")}`);
    for (const folder of FOLDERS) {
      assert.ok(readFileSync(path.join(CORPUS, folder, "LICENSE"), "utf8").length > 0, folder);
      assert.ok(Object.keys(rawServers(folder)).length > 0, `${folder} has servers`);
    }
  });

  it("the expansion written here is Claude Code's: ${VAR}, ${VAR:-default}, an unset one kept", () => {
    assert.equal(
      expand("Bearer ${CORPUS_TOKEN} ${HOST:-localhost} ${GONE}", ENV),
      "Bearer corpus-token-value localhost ${GONE}",
    );
  });

  for (const folder of FOLDERS) {
    it(`${folder}: once approved, every server Claude Code would start, as it would start it`, () => {
      const raw = rawServers(folder);
      const file = path.join(CORPUS, folder, ".mcp.json");
      const loaded = loadServers(LoadedConfig.empty(), {
        workspace: path.join(CORPUS, folder),
        redactor: new DefaultRedactor(),
        env: ENV,
        consent: { isApproved: () => true },
      });
      assert.deepEqual(
        loaded.servers.map(ourServer),
        Object.entries(raw).map(([name, entry]) => claudeCodeServer(name, entry, ENV)),
      );
      assert.deepEqual(loaded.disabled, []);
      assert.ok(
        loaded.servers.every((server) => server.layer === "project" && server.approval),
        "each is a project server that carries its approval",
      );
      // Nothing refused, nothing warned about; if one ever is, it names the file and server.
      for (const diagnostic of loaded.diagnostics) {
        assert.equal(diagnostic.file, file, diagnostic.message);
        assert.ok(diagnostic.item && diagnostic.item in raw, diagnostic.message);
      }
      assert.deepEqual(
        loaded.diagnostics.map((diagnostic) => [diagnostic.severity, diagnostic.message]),
        [],
      );
    });

    it(`${folder}: not yet approved, each server is kept as written and waits for approval`, () => {
      const raw = rawServers(folder);
      const loaded = loadServers(LoadedConfig.empty(), {
        workspace: path.join(CORPUS, folder),
        redactor: new DefaultRedactor(),
        env: ENV,
      });
      assert.deepEqual(
        loaded.servers.map((server) => [server.name, server.approval?.kind]),
        Object.keys(raw).map((name) => [name, "mcp_server"]),
      );
      for (const server of loaded.servers) {
        const written = raw[server.name] as RawServer;
        if (server.transport === "stdio") {
          assert.equal(server.command, written.command);
          assert.deepEqual(server.args, written.args ?? []);
        } else assert.equal(server.url, written.url);
      }
    });
  }

  it(
    "`pseudoclaude mcp list --json` lists every server of each file as not approved",
    TIMEOUT,
    async () => {
      for (const folder of FOLDERS) {
        const workspace = await createTempWorkspace("pc-mcpjson-corpus-");
        try {
          await workspace.write(
            ".mcp.json",
            readFileSync(path.join(CORPUS, folder, ".mcp.json"), "utf8"),
          );
          const run = await runCli(workspace, ["mcp", "list", "--json"]);
          assert.equal(run.code, 0, `${folder}: ${run.stderr}`);
          const listed = parseJson<{
            servers: Array<{ name: string; summary: string; digest: string; approved: boolean }>;
          }>(run);
          const raw = rawServers(folder);
          assert.deepEqual(
            listed.servers.map((server) => [server.name, server.approved]),
            Object.keys(raw).map((name) => [name, false]),
            folder,
          );
          for (const server of listed.servers) {
            const written = raw[server.name] as RawServer;
            // The summary shows what would run or be contacted, as written.
            assert.ok(
              server.summary.includes((written.command ?? written.url) as string),
              `${folder}/${server.name}: ${server.summary}`,
            );
            assert.match(server.digest, /^sha256:/);
          }
        } finally {
          await workspace.cleanup();
        }
      }
    },
  );
});
