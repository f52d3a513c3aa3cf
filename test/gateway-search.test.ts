// `gateway.expose_mode: search` as clients meet it: `pseudoclaude serve --mcp` over real stdio and
// Streamable HTTP, driven by the official SDK clients of both lines (v1 at 2025-11-25, v2 pinned
// to each era). Each search-mode client is set beside a client of the same kind on an `all`-mode
// gateway of the same configuration: what a search finds, and what `call_tool` answers, is
// compared with what that client lists and gets from a direct call.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { LoadedConfig } from "@pseudoclaude/core";
import { loadGatewaySettings } from "@pseudoclaude/gateway";
import { createTempWorkspace } from "@pseudoclaude/testing";
import { runCli } from "./support/cli.js";
import { text, waitFor } from "./support/gateway-cases.js";
import {
  CLIENT_KINDS,
  type ClientKind,
  type Connection,
  connectClient,
  type GatewayClient,
  type ToolCallResult,
} from "./support/gateway-clients.js";
import { startHttpGateway } from "./support/gateway-process.js";
import { createGatewayWorkspace, type GatewayWorkspace } from "./support/gateway-workspace.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const TOKEN = "gateway-search-token-0123456789";

/** Both gateways hide log_burst by `gateway.expose`; the policy denies crash by name. */
const UNEXPOSED = "mcp__behaviours__log_burst";
const DENIED = "mcp__behaviours__crash";
const EXPOSE = '  expose:\n    deny: ["mcp__behaviours__log_burst"]';

interface Served {
  workspace: GatewayWorkspace;
  connection: Connection;
  close(): Promise<void>;
}

async function serve(transport: "stdio" | "http", mode: "search" | "all"): Promise<Served> {
  const workspace = await createGatewayWorkspace(
    mode === "search" ? `  expose_mode: search\n${EXPOSE}` : EXPOSE,
  );
  if (transport === "stdio")
    return { workspace, connection: { stdio: workspace.stdio() }, close: async () => undefined };
  const gateway = await startHttpGateway(workspace, [], { PSEUDOCLAUDE_GATEWAY_TOKEN: TOKEN });
  return {
    workspace,
    connection: { http: { url: gateway.url, token: TOKEN } },
    close: async () => {
      await gateway.stop();
    },
  };
}

interface Found {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

async function search(client: GatewayClient, query: string, limit = 5): Promise<Found[]> {
  const result = await client.callTool("search_tools", { query, limit });
  assert.equal(result.isError, undefined, text(result));
  return (result.structuredContent as { tools: Found[] }).tools;
}

const callTool = (client: GatewayClient, name: string, args?: Record<string, unknown>) =>
  client.callTool("call_tool", args === undefined ? { name } : { name, arguments: args });

/** What a call answered, as a client compares it: content, structured value, error flag. */
const answer = (result: ToolCallResult) => ({
  content: result.content,
  structuredContent: result.structuredContent,
  isError: result.isError,
});

/** The JSON-RPC error a call was refused with. */
async function refusal(call: Promise<unknown>): Promise<{ code: unknown; message: string }> {
  try {
    await call;
  } catch (error) {
    return { code: (error as { code?: unknown }).code, message: String(error) };
  }
  assert.fail("the call was not refused");
}

for (const transport of ["stdio", "http"] as const)
  describe(`expose_mode: search over ${transport}`, () => {
    let searching: Served;
    let listing: Served;
    before(async () => {
      [searching, listing] = await Promise.all([
        serve(transport, "search"),
        serve(transport, "all"),
      ]);
    });
    after(async () => {
      await Promise.all([searching?.close(), listing?.close()]);
      await Promise.all([searching?.workspace.cleanup(), listing?.workspace.cleanup()]);
    });

    for (const kind of CLIENT_KINDS) describeSearchClient(transport, kind);

    function describeSearchClient(transport: "stdio" | "http", kind: ClientKind): void {
      describe(`${kind} client`, () => {
        let client: GatewayClient;
        let direct: GatewayClient;
        before(async () => {
          [client, direct] = await Promise.all([
            connectClient(kind, searching.connection),
            connectClient(kind, listing.connection),
          ]);
        });
        after(async () => {
          await Promise.all([client?.close(), direct?.close()]);
        });

        test("tools/list shows search_tools and call_tool, and nothing else", async () => {
          const tools = (await client.listTools()) as Array<
            Found & { annotations?: Record<string, unknown> }
          >;
          assert.deepEqual(
            tools.map((tool) => tool.name),
            ["search_tools", "call_tool"],
          );
          const [searchTools, callToolTool] = tools;
          assert.equal(searchTools?.annotations?.readOnlyHint, true);
          assert.deepEqual(searchTools?.inputSchema.required, ["query"]);
          // call_tool runs whichever tool it is given: it does not claim to be harmless.
          assert.equal(callToolTool?.annotations?.readOnlyHint, false);
          assert.equal(callToolTool?.annotations?.destructiveHint, true);
          assert.deepEqual(callToolTool?.inputSchema.required, ["name"]);
          if (kind === "v2@2026-07-28") assert.equal(client.protocolVersion, "2026-07-28");
        });

        test("a search finds an upstream tool as all mode lists it", async () => {
          const found = await search(client, "echo text");
          assert.equal(found[0]?.name, "mcp__behaviours__echo");
          const listed = (await direct.listTools()) as Found[];
          const echo = listed.find((tool) => tool.name === "mcp__behaviours__echo");
          assert.ok(echo);
          const shown = (tool: Found) => ({
            name: tool.name,
            description: tool.description,
            inputSchema: tool.inputSchema,
            annotations: tool.annotations,
          });
          assert.deepEqual(shown(found[0]), shown(echo));
          const result = await client.callTool("search_tools", { query: "echo text" });
          assert.match(text(result), /mcp__behaviours__echo: Echo text\./);
          assert.match(text(result), /"text"/, "the text carries the input schema too");
        });

        test("call_tool runs a found tool with the same result as a direct call in all mode", async () => {
          const args = { text: `through call_tool, ${kind}` };
          const through = await callTool(client, "mcp__behaviours__echo", args);
          assert.match(text(through), /through call_tool/);
          assert.deepEqual(
            answer(through),
            answer(await direct.callTool("mcp__behaviours__echo", args)),
          );
          // A structured result, and a tool's own error, come back as they do directly.
          for (const name of ["mcp__behaviours__structured", "mcp__behaviours__fails"])
            assert.deepEqual(
              answer(await callTool(client, name, {})),
              answer(await direct.callTool(name, {})),
              name,
            );
          // A client that calls a found tool by its own name gets the same call.
          assert.deepEqual(
            answer(await client.callTool("mcp__behaviours__echo", args)),
            answer(through),
          );
        });

        test("a call through call_tool is asked about as a direct call is; progress comes back", async () => {
          const progress: number[] = [];
          const before = client.elicitations.length;
          const result = await client.callTool(
            "call_tool",
            { name: "mcp__behaviours__progress" },
            { onprogress: (update) => progress.push(update.progress) },
          );
          assert.equal(result.isError, undefined, text(result));
          assert.match(text(result), /progress done/);
          assert.equal(client.elicitations.length, before + 1);
          assert.match(
            client.elicitations.at(-1)?.message ?? "",
            /Allow mcp__behaviours__progress/,
          );
          assert.deepEqual(progress.slice(-3), [1, 2, 3]);
          client.answer = () => ({ action: "decline" });
          try {
            const declined = await callTool(client, "mcp__behaviours__progress");
            assert.equal(declined.isError, true);
            assert.match(text(declined), /declin/);
          } finally {
            client.answer = () => ({ action: "accept", content: { allow: true } });
          }
        });

        for (const [what, name, words] of [
          ["the policy denies", DENIED, "crash exits server"],
          ["gateway.expose hides", UNEXPOSED, "log burst messages debug warning"],
        ] as const)
          test(`a tool ${what} is never found, and call_tool on it is refused as a direct call is`, async () => {
            for (const query of [words, `select:${name}`, name]) {
              const found = await search(client, query, 50);
              assert.ok(
                !found.some((tool) => tool.name === name),
                `${query}: ${found.map((tool) => tool.name).join(", ")}`,
              );
            }
            const refused = await refusal(callTool(client, name, {}));
            const directly = await refusal(direct.callTool(name, {}));
            assert.match(refused.message, new RegExp(`Unknown tool: ${name}`));
            assert.match(directly.message, new RegExp(`Unknown tool: ${name}`));
            assert.equal(refused.code, directly.code);
            assert.equal(refused.code, -32602);
            assert.match(refused.message, /search_tools finds the tools this gateway exports/);
          });

        test("a rule that denies by argument holds through call_tool", async () => {
          const args = { command: "rm -rf build" };
          const refused = await callTool(client, "run_command", args);
          assert.equal(refused.isError, true);
          assert.match(text(refused), /Rule deny: "run_command\(rm \*\)"/);
          assert.deepEqual(answer(refused), answer(await direct.callTool("run_command", args)));
        });

        test("arguments that do not fit are the tool's error, said so the model can retry", async () => {
          const noQuery = await client.callTool("search_tools", {});
          assert.equal(noQuery.isError, true);
          assert.match(text(noQuery), /query: a non-empty string is required/);
          const flat = await client.callTool("call_tool", {
            name: "mcp__behaviours__echo",
            text: "not in arguments",
          });
          assert.equal(flat.isError, true);
          assert.match(text(flat), /text: unknown argument.*`arguments`/);
        });

        test("a call through call_tool is audited under the tool's own name", async () => {
          const marker = `audited ${transport} ${kind}`;
          await callTool(client, "mcp__behaviours__echo", { text: marker });
          const record = await waitFor(async () =>
            (await searching.workspace.auditRecords()).find(
              (entry) =>
                (entry.what as { arguments?: { text?: string } }).arguments?.text === marker,
            ),
          );
          assert.equal((record.what as { name?: string }).name, "mcp__behaviours__echo");
          assert.equal((record.what as { source?: string }).source, "mcp:behaviours");
          assert.equal(record.decision, "allow");
          assert.equal(record.outcome, "ok");
          assert.equal(record.transport, transport);
          assert.equal(record.era, kind === "v2@2026-07-28" ? "2026-07-28" : "2025-11-25");
        });

        test("a tool added upstream is found, and the two listed tools do not change", async () => {
          let changed = false;
          void client.nextToolsChange().then(() => {
            changed = true;
          });
          const added = `mcp__behaviours__searched_${kind.replace(/\W/g, "_")}`;
          const name = added.replace("mcp__behaviours__", "");
          assert.ok(!(await search(client, `select:${added}`)).some((tool) => tool.name === added));
          await callTool(client, "mcp__behaviours__add_tool", { name });
          const found = await waitFor(async () => {
            const tools = await search(client, `select:${added}`);
            return tools[0]?.name === added ? tools : undefined;
          });
          assert.equal(found[0]?.description, `Added at run time: ${name}`);
          assert.deepEqual(
            (await client.listTools()).map((tool) => tool.name),
            ["search_tools", "call_tool"],
          );
          // The all-mode client of this kind hears list_changed for the same kind of change
          // (test/support/gateway-cases.ts); in search mode there is nothing to hear.
          await new Promise((resolve) => setTimeout(resolve, 300));
          assert.equal(changed, false, "no tools/list_changed in search mode");
        });
      });
    }
  });

describe("expose_mode: all", () => {
  test("is what a gateway without expose_mode serves", async () => {
    const [explicit, implicit] = await Promise.all([
      createGatewayWorkspace(`  expose_mode: all\n${EXPOSE}`),
      createGatewayWorkspace(EXPOSE),
    ]);
    try {
      const names = async (workspace: GatewayWorkspace) => {
        const client = await connectClient("v1", { stdio: workspace.stdio() });
        try {
          return (await client.listTools()).map((tool) => tool.name);
        } finally {
          await client.close();
        }
      };
      const [withKey, withoutKey] = await Promise.all([names(explicit), names(implicit)]);
      assert.deepEqual(withKey, withoutKey);
      assert.ok(withKey.includes("mcp__behaviours__echo"), withKey.join(", "));
      assert.ok(!withKey.includes("search_tools") && !withKey.includes(UNEXPOSED));
    } finally {
      await Promise.all([explicit.cleanup(), implicit.cleanup()]);
    }
  });
});

describe("expose_mode in config", () => {
  test("a value it does not know stops serve --mcp with the file, line and the choices", async () => {
    const workspace = await createTempWorkspace("pc-gateway-search-");
    try {
      const file = await workspace.writeConfig(
        "user",
        "gateway:\n  audit: false\n  expose_mode: searching\n",
      );
      const run = await runCli(workspace, ["serve", "--mcp"], { timeoutMs: 60_000 });
      assert.equal(run.code, 2, run.stderr);
      assert.ok(run.stderr.includes(`${file}:3`), run.stderr);
      assert.match(run.stderr, /gateway\.expose_mode/);
      assert.match(run.stderr, /"all".*"search"/);
    } finally {
      await workspace.cleanup();
    }
  });

  test("docs/gateway.md's example turns search mode on", async () => {
    const page = await readFile(path.join(ROOT, "docs", "gateway.md"), "utf8");
    const marker = "<!-- gateway-example: search -->\n";
    const at = page.indexOf(marker);
    assert.notEqual(at, -1, "docs/gateway.md has the search example");
    const fence = page.slice(at + marker.length);
    const yaml = fence.slice(fence.indexOf("\n") + 1, fence.indexOf("\n```"));
    const { settings, diagnostics } = loadGatewaySettings(LoadedConfig.fromTexts({ user: yaml }));
    assert.deepEqual(diagnostics, []);
    assert.equal(settings.exposeMode, "search");
  });
});
