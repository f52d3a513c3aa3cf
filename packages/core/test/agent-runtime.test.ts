import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createAgent, definePlugin, defineTool, type Tool } from "@pseudoclaude/core";
import { StaticToolSource } from "@pseudoclaude/core/plugin";
import { z } from "zod";

const tool = (name: string, safety: "read_only" | "side_effect", source: string): Tool =>
  defineTool({ name, description: name, input: z.object({}), safety, source, execute: () => "ok" });

/** A plugin whose source takes `ms` to start (a slow MCP server), or fails after it. */
const slowPlugin = (id: string, ms: number, fail = false) =>
  definePlugin({
    name: `${id}-plugin`,
    register(context) {
      context.addToolSource(
        new StaticToolSource(id, [tool(`${id}_tool`, "read_only", id)], {
          start: () =>
            new Promise<void>((resolve, reject) =>
              setTimeout(() => (fail ? reject(new Error(`${id} broke`)) : resolve()), ms),
            ),
        }),
      );
    },
  });

describe("an agent while it lives", () => {
  it("returns before background sources are up; their tools join when they are", async () => {
    // The late source starts only when the test opens the gate: createAgent returning at all
    // shows it did not wait for it.
    let open = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const gated = definePlugin({
      name: "late-plugin",
      register(context) {
        context.addToolSource(
          new StaticToolSource("late", [tool("late_tool", "read_only", "late")], {
            start: () => gate,
          }),
        );
      },
    });
    const created = createAgent({
      config: false,
      plugins: [slowPlugin("quick", 0), gated],
      backgroundSources: (id) => id === "late",
    });
    let timer: NodeJS.Timeout | undefined;
    const agent = await Promise.race([
      created,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error("createAgent waited for the late source")),
          10_000,
        );
      }),
    ]).finally(() => clearTimeout(timer));
    try {
      assert.deepEqual(
        agent.registry.definitions().map((definition) => definition.name),
        ["quick_tool"],
      );
      assert.notEqual(
        agent.sources().find((source) => source.id === "late")?.status.state,
        "ready",
      );
      const joined = new Promise<string[]>((resolve) =>
        agent.registry.on("changed", (change) => resolve(change.added)),
      );
      open();
      await agent.whenSourcesStarted();
      assert.deepEqual(await joined, ["late_tool"]);
      assert.equal(agent.sources().find((source) => source.id === "late")?.status.state, "ready");
    } finally {
      open();
      await agent.close();
    }
  });

  it("reports a background source that fails as a diagnostic, even in strict mode", async () => {
    const agent = await createAgent({
      config: false,
      strict: true,
      plugins: [slowPlugin("late", 50, true)],
      backgroundSources: () => true,
    });
    try {
      await agent.whenSourcesStarted();
      const failure = agent
        .diagnostics()
        .find((diagnostic) => diagnostic.code === "source_start_failed");
      assert.match(failure?.message ?? "", /late broke/);
    } finally {
      await agent.close();
    }
  });

  it("switches the permission mode, and the offered tools and decisions follow", async () => {
    const agent = await createAgent({
      config: false,
      plugins: [
        definePlugin({
          name: "two",
          register(context) {
            context.addToolSource(
              new StaticToolSource("two", [
                tool("look", "read_only", "two"),
                tool("change", "side_effect", "two"),
              ]),
            );
          },
        }),
      ],
    });
    try {
      assert.equal(agent.mode, "default");
      assert.deepEqual(
        agent.offeredTools().map((definition) => definition.name),
        ["look", "change"],
      );
      agent.setMode("plan");
      assert.equal(agent.mode, "plan");
      assert.deepEqual(
        agent.offeredTools().map((definition) => definition.name),
        ["look"],
      );
      assert.equal((await agent.callTool("change", {})).decision.verdict, "deny");
      agent.setMode("bypass");
      assert.equal((await agent.callTool("change", {})).decision.verdict, "allow");
      assert.throws(() => agent.setMode("sideways" as never), /Unknown permission mode "sideways"/);
    } finally {
      await agent.close();
    }
  });

  it("refuses to switch modes when its engine cannot", async () => {
    const agent = await createAgent({
      config: false,
      policyEngine: {
        mode: "default",
        isOffered: () => true,
        decide: () => ({
          verdict: "allow",
          reason: "mine",
          matched: { kind: "mode", mode: "default" },
        }),
      },
    });
    try {
      assert.throws(() => agent.setMode("plan"), { code: "mode_not_switchable" });
    } finally {
      await agent.close();
    }
  });

  it("starts the conversation over on clear", async () => {
    const agent = await createAgent({ config: false });
    try {
      agent.conversation.append({ role: "user", content: "hello" });
      assert.equal(agent.conversation.length, 1);
      agent.conversation.clear();
      assert.equal(agent.conversation.length, 0);
    } finally {
      await agent.close();
    }
  });

  it("gives every callTool an id of its own, the same in its events and its metadata", async () => {
    const agent = await createAgent({ config: false, plugins: [slowPlugin("ids", 0)] });
    try {
      const started: string[] = [];
      agent.on("tool-call-start", ({ call }) => started.push(call.id));
      const outcomes = await Promise.all(
        Array.from({ length: 200 }, () => agent.callTool("ids_tool", {})),
      );
      const ids = outcomes.map((outcome) => String(outcome.result.metadata.call_id));
      assert.equal(new Set(ids).size, 200, "no id twice");
      assert.deepEqual(started, ids);
      for (const id of ids) assert.match(id, /^call_[0-9a-f]{16}[0-9a-z]+$/);
    } finally {
      await agent.close();
    }
  });
});
