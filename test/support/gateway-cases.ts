// The cases every gateway transport passes with every official client: list, call, deny, ask
// through elicitation, progress, cancel, list_changed after an upstream change, the audit file.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  type ClientKind,
  type Connection,
  connectClient,
  type GatewayClient,
} from "./gateway-clients.js";
import type { GatewayWorkspace } from "./gateway-workspace.js";

export const text = (result: { content: Array<{ type: string; text?: string }> }) =>
  result.content.map((block) => block.text ?? "").join("\n");

export function describeGatewayCases(
  transport: "stdio" | "http",
  kind: ClientKind,
  open: () => Promise<{
    workspace: GatewayWorkspace;
    connection: Connection;
    close(): Promise<void>;
  }>,
): void {
  describe(`gateway over ${transport}, ${kind} client`, () => {
    let workspace: GatewayWorkspace;
    let client: GatewayClient;
    let close: () => Promise<void> = async () => undefined;
    before(async () => {
      const opened = await open();
      workspace = opened.workspace;
      close = opened.close;
      client = await connectClient(kind, opened.connection);
    });
    after(async () => {
      await client?.close();
      await close();
      await workspace?.cleanup();
    });

    test("lists the registry's tools with the gateway's own annotations", async () => {
      const tools = await client.listTools();
      const names = tools.map((tool) => tool.name);
      assert.ok(names.includes("mcp__behaviours__echo"), names.join(", "));
      assert.ok(names.includes("read_file"), "built-in tools are exported too");
      assert.ok(!names.includes("mcp__behaviours__crash"), "a tool denied by name is not exported");
      const echo = tools.find((tool) => tool.name === "mcp__behaviours__echo");
      // The fixture claims readOnlyHint: true; the gateway does not repeat an upstream claim.
      assert.equal(echo?.annotations?.readOnlyHint, false);
      assert.equal(echo?.annotations?.destructiveHint, true);
      assert.equal(echo?._meta?.["dev.pseudoclaude/source"], "mcp:behaviours");
      const read = tools.find((tool) => tool.name === "read_file");
      assert.equal(read?.annotations?.readOnlyHint, true);
      if (kind === "v2@2026-07-28") assert.equal(client.protocolVersion, "2026-07-28");
      if (kind === "v2@2025-11-25") assert.equal(client.protocolVersion, "2025-11-25");
    });

    test("an allowed call runs upstream and comes back", async () => {
      const result = await client.callTool("mcp__behaviours__echo", {
        text: "through the gateway",
      });
      assert.equal(result.isError, undefined);
      assert.match(text(result), /through the gateway/);
      assert.equal(client.elicitations.length, 0, "an allowed call asks nothing");
    });

    test("deny rules hold: by name and by argument", async () => {
      await assert.rejects(
        client.callTool("mcp__behaviours__crash", {}),
        /Unknown tool: mcp__behaviours__crash/,
      );
      const denied = await client.callTool("run_command", { command: "rm -rf build" });
      assert.equal(denied.isError, true);
      assert.match(text(denied), /Rule deny: "run_command\(rm \*\)"/);
      assert.equal(client.elicitations.length, 0, "a denied call is never asked about");
    });

    test("a call the policy asks about is asked of the client; progress comes back", async () => {
      const progress: number[] = [];
      client.answer = () => ({ action: "accept", content: { allow: true } });
      const result = await client.callTool(
        "mcp__behaviours__progress",
        {},
        { onprogress: (update) => progress.push(update.progress) },
      );
      assert.equal(result.isError, undefined, text(result));
      assert.match(text(result), /progress done/);
      const asked = client.elicitations.at(-1);
      assert.match(asked?.message ?? "", /Allow mcp__behaviours__progress/);
      // The upstream server's three steps, in order (a 2026-07-28 client may also see a step of
      // its own for the question's round trip first).
      assert.deepEqual(progress.slice(-3), [1, 2, 3]);
    });

    test("a declined question denies the call", async () => {
      const before = client.elicitations.length;
      client.answer = () => ({ action: "decline" });
      const result = await client.callTool("mcp__behaviours__progress", {});
      assert.equal(result.isError, true);
      assert.match(text(result), /declin/);
      assert.equal(client.elicitations.length, before + 1);
      client.answer = () => ({ action: "accept", content: { allow: true } });
    });

    test("cancelling a call cancels it upstream", async () => {
      const cancelledUpstream = async () =>
        (await workspace.upstreamLog()).filter((line) => line.startsWith("cancelled hang ")).length;
      const before = await cancelledUpstream();
      const controller = new AbortController();
      const pending = client.callTool("mcp__behaviours__hang", {}, { signal: controller.signal });
      setTimeout(() => controller.abort(new Error("user cancel")), 300);
      await assert.rejects(pending);
      // The gateway stays usable after the cancel.
      const again = await client.callTool("mcp__behaviours__echo", { text: "still here" });
      assert.match(text(again), /still here/);
      await waitFor(async () =>
        (await workspace.auditRecords()).some(
          (record) =>
            (record.what as { name?: string }).name === "mcp__behaviours__hang" &&
            /cancel/.test(String(record.error)),
        ),
      );
      // Upstream: the server itself heard the cancellation of the call it was running.
      await waitFor(async () => (await cancelledUpstream()) === before + 1);
    });

    test("a tool added upstream reaches the client as list_changed", async () => {
      const changed = client.nextToolsChange();
      const name = `added_${kind.replace(/\W/g, "_")}`;
      await client.callTool("mcp__behaviours__add_tool", { name });
      await changed;
      await waitFor(async () =>
        (await client.listTools()).some((tool) => tool.name === `mcp__behaviours__${name}`),
      );
    });

    test("every call is in the audit file, who, what and decision, arguments redacted", async () => {
      await client.callTool("mcp__behaviours__echo", {
        text: "x",
        api_key: "sk-live-0123456789abcdef",
      });
      const records = await waitFor(async () => {
        const all = await workspace.auditRecords();
        return all.some((record) => JSON.stringify(record).includes('"api_key"')) ? all : undefined;
      });
      const echo = records.find((record) => JSON.stringify(record).includes('"api_key"'));
      assert.equal(echo?.decision, "allow");
      assert.equal(echo?.outcome, "ok");
      assert.equal(echo?.transport, transport);
      assert.equal(echo?.era, kind === "v2@2026-07-28" ? "2026-07-28" : "2025-11-25");
      assert.match(String((echo?.who as { client?: string } | undefined)?.client), /gateway-test/);
      assert.ok(!JSON.stringify(records).includes("sk-live-0123456789abcdef"), "secrets redacted");
      assert.ok(records.some((record) => record.decision === "deny"));
      assert.ok(records.some((record) => record.decision === "approved"));
      assert.ok(records.some((record) => record.decision === "rejected"));
    });
  });
}

export async function waitFor<T>(
  probe: () => Promise<T | undefined | false>,
  ms = 10_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
