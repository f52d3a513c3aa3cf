// Servers given in code: camelCase keys typed per transport (snake_case still read), applied to
// a real stdio server; mistakes (an unknown key, no command or url, a wrong value) make
// createAgent throw, naming the server and the key as written, with a suggestion.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ConfigError, createAgent } from "@pseudoclaude/core";
import { type McpServerOptions, mcp } from "@pseudoclaude/plugin-mcp";
import { fixture } from "./support/mcp-fixtures.js";

async function rejection(servers: Record<string, unknown>): Promise<ConfigError> {
  try {
    const agent = await createAgent({
      config: false,
      plugins: [mcp({ servers: servers as Record<string, McpServerOptions> })],
    });
    await agent.close();
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    return error;
  }
  assert.fail("createAgent did not throw");
}

describe("mcp({ servers }) in code", () => {
  it("takes camelCase keys per transport, and the config files' snake_case", async () => {
    const camel: McpServerOptions = {
      command: process.execPath,
      args: [fixture("behaviours")],
      readOnly: true,
      callTimeoutMs: 4_321,
      tools: { allow: ["echo", "progress"] },
    };
    const agent = await createAgent({
      config: false,
      plugins: [
        mcp({
          servers: {
            camel,
            snake: {
              command: process.execPath,
              args: [fixture("behaviours")],
              call_timeout_ms: 1_234,
            },
          },
        }),
      ],
    });
    try {
      const echo = agent.registry.get("mcp__camel__echo")?.definition;
      assert.equal(echo?.safety, "read_only");
      assert.equal(echo?.timeoutMs, 4_321);
      assert.equal(agent.registry.get("mcp__camel__crash"), undefined, "tools.allow applied");
      assert.equal(agent.registry.get("mcp__snake__echo")?.definition.timeoutMs, 1_234);
    } finally {
      await agent.close();
    }
  });

  it("throws for an unknown key, with the key as written and a suggestion", async () => {
    const error = await rejection({
      typo: { comand: "npx" },
      ok: { command: "node", readOnyl: true },
    });
    assert.equal(error.code, "config_invalid");
    assert.match(error.message, /server "typo": unknown key "comand" \(did you mean `command`\?\)/);
    assert.match(
      error.message,
      /server "ok": unknown key "readOnyl" \(did you mean `readOnly`\?\)/,
    );
  });

  it("throws for a server with neither command nor url, and for a wrong value", async () => {
    const empty = await rejection({ nothing: {} });
    assert.match(empty.message, /server "nothing": give it a `command` .* or a `url`/);
    const wrong = await rejection({ slow: { command: "node", callTimeoutMs: "5s" } });
    assert.match(wrong.message, /server "slow" callTimeoutMs: /);
    const remote = await rejection({ web: { url: "ftp://example.com/mcp" } });
    assert.match(remote.message, /server "web" url: /);
  });

  it("names a key of the other transport as unknown to this one", async () => {
    const mixed = await rejection({
      local: { command: "node", headers: { authorization: "Bearer x" } },
      remote: { url: "https://example.com/mcp", inheritEnv: true },
    });
    assert.match(mixed.message, /server "local": unknown key "headers"\./);
    assert.match(mixed.message, /server "remote": unknown key "inheritEnv"\./);
  });
});
