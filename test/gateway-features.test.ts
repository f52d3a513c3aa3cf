// Upstream resources and prompts through the gateway, from two copies of the official
// reference server (server-everything): prompts named as tools are, resource URIs kept when
// one server has them and made distinct when two do, reads routed to the right server. Each
// copy runs behind the recording proxy fixture, whose log says which copy was asked.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import { fixture } from "#mcp-test/mcp-fixtures.js";
import { CLI_BIN } from "./support/cli.js";
import { type ClientKind, connectClient, type GatewayClient } from "./support/gateway-clients.js";
import { createGatewayWorkspace, gatewayEnv } from "./support/gateway-workspace.js";

const EVERYTHING = path.join(
  fileURLToPath(new URL("../../", import.meta.url)),
  "node_modules/@modelcontextprotocol/server-everything/dist/index.js",
);

/** What server `name` was asked, in order (`resources/read test://…`). */
async function asked(workspace: TempWorkspace, name: string): Promise<string[]> {
  const file = path.join(workspace.root, `${name}.log`);
  return (await readFile(file, "utf8").catch(() => "")).split("\n").filter(Boolean);
}

function config(workspace: TempWorkspace, servers: readonly string[], gatewayYaml: string): string {
  const proxy = fixture("recording-proxy");
  return [
    "mcp_servers:",
    ...servers.flatMap((name) => [
      `  ${name}:`,
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [${[proxy, process.execPath, EVERYTHING, "stdio"].map((arg) => JSON.stringify(arg)).join(", ")}]`,
      `    env: { FIXTURE_LOG: ${JSON.stringify(path.join(workspace.root, `${name}.log`))} }`,
    ]),
    "gateway:",
    "  audit: false",
    gatewayYaml,
  ].join("\n");
}

async function open(
  kind: ClientKind,
  servers: readonly string[],
  gatewayYaml = "",
): Promise<{ workspace: TempWorkspace; client: GatewayClient }> {
  const workspace = await createTempWorkspace("pc-gateway-features-");
  await workspace.writeConfig("user", config(workspace, servers, gatewayYaml));
  const client = await connectClient(kind, {
    stdio: {
      command: process.execPath,
      args: [CLI_BIN, "serve", "--mcp", "--workspace", workspace.root],
      env: gatewayEnv(workspace),
      cwd: workspace.root,
    },
  });
  return { workspace, client };
}

for (const kind of ["v1", "v2@2026-07-28"] as const) {
  describe(`gateway resources and prompts, ${kind} client, two servers`, () => {
    let workspace: TempWorkspace;
    let client: GatewayClient;
    before(async () => {
      ({ workspace, client } = await open(kind, ["ev1", "ev2"]));
    });
    after(async () => {
      await client?.close();
      await workspace?.cleanup();
    });

    test("prompts are named per server, and a prompt comes from its own server", async () => {
      const names = (await client.listPrompts()).map((prompt) => prompt.name);
      const first = names.filter((name) => name.startsWith("mcp__ev1__"));
      assert.ok(first.length > 0, names.join(", "));
      for (const name of first)
        assert.ok(names.includes(name.replace("mcp__ev1__", "mcp__ev2__")), `${name} of ev2 too`);
      const simple = first.find((name) => /simple/i.test(name)) ?? (first[0] as string);
      const prompt = await client.getPrompt(simple);
      assert.ok(prompt.messages.length > 0);
      // ev1 was asked for it, and ev2 never.
      const remote = `prompts/get ${simple.slice("mcp__ev1__".length)}`;
      assert.ok((await asked(workspace, "ev1")).includes(remote), remote);
      assert.ok(!(await asked(workspace, "ev2")).includes(remote));
      await assert.rejects(client.getPrompt("mcp__nowhere__x"), /Unknown prompt/);
    });

    test("a URI both servers list is made distinct, and reads from the server it names", async () => {
      const resources = await client.listResources();
      assert.ok(resources.length > 0);
      for (const resource of resources)
        assert.match(resource.uri, /^pseudoclaude\+mcp:\/\/ev[12]\//, resource.uri);
      const one = resources.find((resource) => resource.uri.startsWith("pseudoclaude+mcp://ev2/"));
      assert.ok(one);
      const read = await client.readResource(one.uri);
      assert.equal(read.contents[0]?.uri, one.uri);
      // ev2 was asked for it under its own URI, and ev1 never.
      const remote = `resources/read ${one.uri.slice("pseudoclaude+mcp://ev2/".length)}`;
      assert.ok((await asked(workspace, "ev2")).includes(remote), remote);
      assert.ok(!(await asked(workspace, "ev1")).includes(remote));
    });
  });
}

describe("gateway resources, one server exposed", () => {
  test("URIs are the server's own; the hidden server's resources and prompts are not there", async () => {
    const { workspace, client } = await open(
      "v2@2026-07-28",
      ["ev1", "ev2"],
      '  expose:\n    deny: ["mcp:ev2"]',
    );
    try {
      const resources = await client.listResources();
      assert.ok(resources.length > 0);
      for (const resource of resources)
        assert.doesNotMatch(resource.uri, /^pseudoclaude\+mcp:/, resource.uri);
      const read = await client.readResource((resources[0] as { uri: string }).uri);
      assert.equal(read.contents[0]?.uri, resources[0]?.uri);
      const names = (await client.listPrompts()).map((prompt) => prompt.name);
      assert.ok(names.some((name) => name.startsWith("mcp__ev1__")));
      assert.ok(!names.some((name) => name.startsWith("mcp__ev2__")), names.join(", "));
      await assert.rejects(client.readResource("pseudoclaude+mcp://ev2/test://static/resource/1"));
    } finally {
      await client.close();
      await workspace.cleanup();
    }
  });
});

for (const kind of ["v1", "v2@2025-11-25"] as const) {
  describe(`gateway completions and subscriptions, ${kind} client, one server`, () => {
    let workspace: TempWorkspace;
    let client: GatewayClient;
    before(async () => {
      ({ workspace, client } = await open(
        kind,
        ["ev1"],
        'permissions:\n  allow: ["mcp__ev1__toggle-subscriber-updates"]',
      ));
    });
    after(async () => {
      await client?.close();
      await workspace?.cleanup();
    });

    test("a prompt argument is completed by its server, with the arguments given so far", async () => {
      const prompt = { type: "ref/prompt", name: "mcp__ev1__completable-prompt" } as const;
      const departments = await client.complete(prompt, { name: "department", value: "S" });
      assert.deepEqual([...departments.values].sort(), ["Sales", "Support"]);
      const names = await client.complete(
        prompt,
        { name: "name", value: "" },
        { department: "Engineering" },
      );
      assert.deepEqual(names.values, ["Alice", "Bob", "Charlie"]);
      await assert.rejects(
        client.complete({ type: "ref/prompt", name: "mcp__nowhere__x" }, { name: "a", value: "" }),
        /Unknown prompt/,
      );
    });

    test("a resource template argument is completed by the server that has the template", async () => {
      const template = {
        type: "ref/resource",
        uri: "demo://resource/dynamic/text/{resourceId}",
      } as const;
      assert.deepEqual(
        (await client.complete(template, { name: "resourceId", value: "7" })).values,
        ["7"],
      );
      assert.deepEqual(
        (await client.complete(template, { name: "resourceId", value: "x" })).values,
        [],
      );
    });

    test("a subscribed resource's updates reach the client, and stop after it unsubscribes", async () => {
      const uri = "demo://resource/dynamic/text/1";
      await client.subscribeResource(uri);
      // The server sends an update for each subscribed URI at once when this tool starts them.
      await client.callTool("mcp__ev1__toggle-subscriber-updates", {});
      await waitFor(() => client.resourceUpdates.includes(uri), "the first update");
      await client.unsubscribeResource(uri);
      const seen = client.resourceUpdates.length;
      // Toggle off and on again: the server sends at once for what is still subscribed (nothing).
      await client.callTool("mcp__ev1__toggle-subscriber-updates", {});
      await client.callTool("mcp__ev1__toggle-subscriber-updates", {});
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(client.resourceUpdates.length, seen, client.resourceUpdates.join(", "));
    });
  });
}

async function waitFor(
  check: () => boolean | Promise<boolean>,
  what: string,
  ms = 10_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe("gateway tool order", () => {
  test("MCP servers' tools are listed in config order, not in the order they connected", async () => {
    const workspace = await createTempWorkspace("pc-gateway-order-");
    await workspace.writeConfig(
      "user",
      [
        "mcp_servers:",
        "  slow:",
        `    command: ${JSON.stringify(process.execPath)}`,
        `    args: [${JSON.stringify(fixture("slow-connect"))}]`,
        "    env: { FIXTURE_DELAY_MS: '1500' }",
        "  fast:",
        `    command: ${JSON.stringify(process.execPath)}`,
        `    args: [${JSON.stringify(fixture("behaviours"))}]`,
        "gateway:",
        "  audit: false",
        "  expose:",
        '    allow: ["mcp:*"]',
      ].join("\n"),
    );
    const client = await connectClient("v1", {
      stdio: {
        command: process.execPath,
        args: [CLI_BIN, "serve", "--mcp", "--workspace", workspace.root],
        env: gatewayEnv(workspace),
        cwd: workspace.root,
      },
    });
    try {
      let names: string[] = [];
      await waitFor(async () => {
        names = (await client.listTools()).map((tool) => tool.name);
        return names.includes("mcp__slow__slow_tool");
      }, "the slow server's tool");
      const fast = names.findIndex((name) => name.startsWith("mcp__fast__"));
      assert.ok(fast > 0, names.join(", "));
      assert.equal(names[0], "mcp__slow__slow_tool", names.join(", "));
    } finally {
      await client.close();
      await workspace.cleanup();
    }
  });
});

describe("gateway upstream logs", () => {
  for (const kind of ["v1", "v2@2025-11-25"] as const)
    test(`reach a ${kind} client that set a level, at that level and above, named by server`, async () => {
      const workspace = await createGatewayWorkspace("", ["mcp__behaviours__log_burst"]);
      const client = await connectClient(kind, { stdio: workspace.stdio() });
      try {
        await client.callTool("mcp__behaviours__log_burst", {});
        await new Promise((resolve) => setTimeout(resolve, 200));
        assert.equal(client.logs.length, 0, "nothing before the client asks");
        await client.setLoggingLevel("warning");
        await client.callTool("mcp__behaviours__log_burst", {});
        await waitFor(() => client.logs.length >= 2, "two log messages");
        await new Promise((resolve) => setTimeout(resolve, 200));
        assert.deepEqual(
          client.logs.map((log) => [log.level, log.logger]),
          [
            ["warning", "behaviours/fixture"],
            ["error", "behaviours/fixture"],
          ],
        );
        assert.deepEqual(client.logs[0]?.data, { round: 0, level: "warning" });
      } finally {
        await client.close();
        await workspace.cleanup();
      }
    });
});

describe("gateway upstream questions (elicitation during a call)", () => {
  const setup = async () => {
    const workspace = await createGatewayWorkspace("", ["mcp__behaviours__ask_user"]);
    return { workspace, stdio: workspace.stdio() };
  };

  for (const kind of ["v1", "v2@2025-11-25"] as const)
    test(`go to the ${kind} client whose call raised them, naming the server`, async () => {
      const { workspace, stdio } = await setup();
      const client = await connectClient(kind, { stdio });
      client.answer = () => ({ action: "accept", content: { name: "Ada" } });
      try {
        const result = await client.callTool("mcp__behaviours__ask_user", {});
        assert.equal(result.content[0]?.text, 'elicitation accept {"name":"Ada"}');
        assert.deepEqual(
          client.elicitations.map((question) => question.message),
          ["mcp:behaviours asks: What is your name?"],
        );
      } finally {
        await client.close();
        await workspace.cleanup();
      }
    });

  test("are declined for a client that cannot answer, and for a 2026-07-28 client", async () => {
    const { workspace, stdio } = await setup();
    const mute = await connectClient("v1", { stdio }, { elicitation: false });
    const modern = await connectClient("v2@2026-07-28", { stdio });
    try {
      for (const client of [mute, modern]) {
        const result = await client.callTool("mcp__behaviours__ask_user", {});
        assert.equal(result.content[0]?.text, "elicitation decline null", client.kind);
        assert.equal(client.elicitations.length, 0);
      }
    } finally {
      await mute.close();
      await modern.close();
      await workspace.cleanup();
    }
  });
});
