// The client set-ups and the configuration of docs/gateway.md, read from the page and used as
// written: Claude Desktop's entry starts the gateway over stdio, Cursor's connects to it over
// HTTP with its token, and the `gateway` section exposes and renames what the page says.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { type Agent, createAgent, defineTool } from "@pseudoclaude/core";
import {
  type GatewaySettings,
  GatewaySettingsToken,
  GatewayTools,
  gatewayPlugin,
} from "@pseudoclaude/gateway";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import { parse } from "yaml";
import { z } from "zod";
import { CLI_BIN } from "./support/cli.js";
import { connectClient } from "./support/gateway-clients.js";
import { startHttpGateway } from "./support/gateway-process.js";
import { createGatewayWorkspace, type GatewayWorkspace } from "./support/gateway-workspace.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The fenced block under `<!-- gateway-example: NAME -->`. */
async function example(name: string): Promise<string> {
  const page = await readFile(path.join(ROOT, "docs", "gateway.md"), "utf8");
  const marker = `<!-- gateway-example: ${name} -->\n`;
  const at = page.indexOf(marker);
  assert.notEqual(at, -1, `docs/gateway.md has no example "${name}"`);
  const fence = page.slice(at + marker.length);
  const open = fence.indexOf("\n");
  return fence.slice(open + 1, fence.indexOf("\n```", open));
}

describe("docs/gateway.md, as written", () => {
  let workspace: GatewayWorkspace;
  before(async () => {
    workspace = await createGatewayWorkspace();
  });
  after(async () => {
    await workspace?.cleanup();
  });

  test("Claude Desktop's entry starts the gateway over stdio", async () => {
    const config = JSON.parse(await example("claude-desktop")) as {
      mcpServers: Record<string, { command: string; args: string[] }>;
    };
    const entry = config.mcpServers.pseudoclaude;
    assert.ok(entry);
    assert.equal(entry.command, "npx");
    const [yes, pkg, ...rest] = entry.args;
    assert.deepEqual([yes, pkg], ["-y", "pseudoclaude"]);
    const at = rest.indexOf("--workspace");
    assert.ok(at !== -1 && rest[at + 1]?.startsWith("/"), "it names an absolute workspace");
    // npx -y pseudoclaude is the CLI this repository builds; the workspace is this test's.
    rest[at + 1] = workspace.root;
    const client = await connectClient("v1", {
      stdio: {
        command: process.execPath,
        args: [CLI_BIN, ...rest],
        env: workspace.stdio().env,
        cwd: workspace.root,
      },
    });
    try {
      const names = (await client.listTools()).map((tool) => tool.name);
      assert.ok(names.includes("mcp__behaviours__echo"), names.join(", "));
    } finally {
      await client.close();
    }
  });

  test("Cursor's entry connects to the HTTP gateway with the token from its environment", async () => {
    const config = JSON.parse(await example("cursor")) as {
      mcpServers: Record<string, { url: string; headers: Record<string, string> }>;
    };
    const entry = config.mcpServers.pseudoclaude;
    assert.ok(entry);
    const token = "docs-example-token-0123456789";
    const gateway = await startHttpGateway(workspace, [], { PSEUDOCLAUDE_GATEWAY_TOKEN: token });
    try {
      const url = new URL(entry.url);
      assert.equal(url.hostname, "127.0.0.1");
      assert.equal(url.pathname, "/mcp");
      url.port = String(gateway.port);
      // Cursor expands ${env:NAME} from its own environment.
      const authorization = (entry.headers.Authorization ?? "").replace(
        /\$\{env:(\w+)\}/g,
        (_, name: string) => (name === "PSEUDOCLAUDE_GATEWAY_TOKEN" ? token : ""),
      );
      const bearer = /^Bearer (.+)$/.exec(authorization)?.[1];
      assert.equal(bearer, token);
      const client = await connectClient("v2@2026-07-28", {
        http: { url: url.href, token: bearer },
      });
      try {
        const result = await client.callTool("mcp__behaviours__echo", { text: "from cursor" });
        assert.match(JSON.stringify(result.content), /from cursor/);
      } finally {
        await client.close();
      }
    } finally {
      await gateway.stop();
    }
  });
});

describe("docs/gateway.md: the gateway section", () => {
  let workspace: TempWorkspace;
  let agent: Agent;
  before(async () => {
    workspace = await createTempWorkspace("pc-gateway-docs-");
    const yaml = await example("config");
    assert.ok((parse(yaml) as { gateway?: unknown }).gateway, "the example is a gateway section");
    // The audit path of the example points at the real home; this test's home stands in.
    await workspace.writeConfig(
      "user",
      yaml.replace("~/.PseudoClaude", path.join(workspace.home, ".PseudoClaude")),
    );
    const tool = (name: string, source?: string) =>
      defineTool({
        name,
        description: name,
        input: z.object({}),
        safety: "side_effect",
        ...(source ? { source } : {}),
        execute: async () => name,
      });
    agent = await createAgent({
      workspace: workspace.root,
      config: { homeDir: workspace.home },
      plugins: [gatewayPlugin()],
      tools: [
        tool("mcp__github__create_issue"),
        tool("mcp__github__delete_repo"),
        tool("read_file"),
        tool("run_command"),
      ],
    });
  });
  after(async () => {
    await agent?.close();
    await workspace?.cleanup();
  });

  test("exposes, hides and renames as the page says", () => {
    const settings = agent.resolve<GatewaySettings>(GatewaySettingsToken);
    assert.equal(settings.ask, "elicit");
    assert.equal(settings.audit, path.join(workspace.home, ".PseudoClaude", "gateway-audit.jsonl"));
    const tools = new GatewayTools(agent, settings);
    try {
      const exported = new Map(
        tools.list().map((tool) => [tool.name, tool._meta["dev.pseudoclaude/tool"]]),
      );
      assert.deepEqual([...exported].sort(), [
        ["github_create_issue", "mcp__github__create_issue"],
        ["read_file", "read_file"],
      ]);
    } finally {
      tools.close();
    }
  });
});
