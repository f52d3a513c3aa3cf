import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createAgent, definePlugin, PluginError, type ToolSource } from "@pseudoclaude/core";
import { ToolRegistry } from "@pseudoclaude/core/plugin";
import {
  createTempWorkspace,
  createTestTool,
  InMemoryToolSource,
  ScriptedProvider,
} from "@pseudoclaude/testing";
import { z } from "zod";

function toolsPlugin(name: string, ...toolNames: string[]) {
  return definePlugin({
    name,
    register: (context) =>
      void context.addToolSource(
        new InMemoryToolSource(
          name,
          toolNames.map((tool) =>
            createTestTool({ name: tool, safety: "read_only", source: name }),
          ),
        ),
      ),
  });
}

/** A source whose start waits for `others` sources to have started too: deadlocks if starts are sequential. */
function barrierSource(
  id: string,
  barrier: { arrived: number; expected: number; release?: () => void; wait: Promise<void> },
): ToolSource {
  const source = new InMemoryToolSource(id, [
    createTestTool({ name: `${id}_tool`, safety: "read_only", source: id }),
  ]);
  const start = source.start.bind(source);
  source.start = async (context) => {
    barrier.arrived += 1;
    if (barrier.arrived === barrier.expected) barrier.release?.();
    await barrier.wait;
    await start(context);
  };
  return source;
}

describe("definePlugin", () => {
  it("rejects misuse with the plugin's name in the message", () => {
    assert.throws(
      () => definePlugin({ name: "Bad Name", register() {} }),
      /Plugin "Bad Name": name must be/,
    );
    assert.throws(
      () => definePlugin({ name: "mine", register: 3 as never }),
      /Plugin "mine": register must be a function/,
    );
    assert.throws(
      () => definePlugin({ name: "loop", dependsOn: ["loop"], register() {} }),
      /cannot depend on itself/,
    );
  });
});

describe("plugin composition", () => {
  it("registers plugins after the plugins they depend on", async () => {
    const order: string[] = [];
    const make = (name: string, dependsOn: string[] = []) =>
      definePlugin({ name, dependsOn, register: () => void order.push(name) });
    const agent = await createAgent({
      config: false,
      plugins: [make("c", ["b"]), make("a"), make("b", ["a"])],
    });
    await agent.close();
    assert.deepEqual(order, ["a", "b", "c"]);
  });

  it("fails at creation for a missing dependency, a duplicate name or a cycle", async () => {
    await assert.rejects(
      createAgent({
        config: false,
        plugins: [definePlugin({ name: "x", dependsOn: ["y"], register() {} })],
      }),
      (error: unknown) =>
        error instanceof PluginError && /Plugin "x" depends on "y"/.test(error.message),
    );
    await assert.rejects(
      createAgent({ config: false, plugins: [toolsPlugin("d"), toolsPlugin("d")] }),
      /listed twice/,
    );
    const a = definePlugin({ name: "a", dependsOn: ["b"], register() {} });
    const b = definePlugin({ name: "b", dependsOn: ["a"], register() {} });
    await assert.rejects(
      createAgent({ config: false, plugins: [a, b] }),
      /dependency cycle: a -> b -> a|dependency cycle: b -> a -> b/,
    );
  });

  it("turns a plugin that fails to register into a diagnostic and skips what depends on it", async () => {
    const broken = definePlugin({
      name: "broken",
      register: (context) => {
        context.addToolSource(
          new InMemoryToolSource("half-added", [createTestTool({ name: "ghost" })]),
        );
        throw new Error("missing binary");
      },
    });
    const dependent = definePlugin({ name: "needs-broken", dependsOn: ["broken"], register() {} });
    const agent = await createAgent({
      config: false,
      plugins: [toolsPlugin("good", "fine"), broken, dependent],
    });
    const names = agent.registry.list().map((t) => t.definition.name);
    await agent.close();
    assert.deepEqual(names, ["fine"], "the half-added source of the failed plugin is gone");
    const messages = agent.diagnostics().map((d) => `${d.source}:${d.code}`);
    assert.ok(messages.includes("broken:plugin_register_failed"), messages.join());
    assert.ok(messages.includes("needs-broken:plugin_skipped"), messages.join());
  });

  it("keeps the tools of healthy plugins when another fails", async () => {
    const broken = definePlugin({
      name: "broken",
      register: () => Promise.reject(new Error("nope")),
    });
    const agent = await createAgent({
      config: false,
      plugins: [toolsPlugin("good", "fine"), broken],
    });
    try {
      assert.deepEqual(
        agent.registry.list().map((t) => t.definition.name),
        ["fine"],
      );
      assert.ok(agent.sources().some((s) => s.id === "good" && s.status.state === "ready"));
    } finally {
      await agent.close();
    }
  });

  it("throws in strict mode instead of reporting", async () => {
    const broken = definePlugin({
      name: "broken",
      register: () => Promise.reject(new Error("nope")),
    });
    await assert.rejects(
      createAgent({ config: false, strict: true, plugins: [broken] }),
      /Plugin "broken" failed to register: nope/,
    );
  });

  it("reports a tool source that fails to start and keeps the others", async () => {
    const failing = new InMemoryToolSource("failing", [createTestTool({ name: "never" })]);
    failing.start = () => Promise.reject(new Error("connection refused"));
    const plugin = definePlugin({
      name: "flaky",
      register: (context) => void context.addToolSource(failing),
    });
    const agent = await createAgent({
      config: false,
      plugins: [plugin, toolsPlugin("good", "fine")],
    });
    try {
      const diagnostic = agent.diagnostics().find((d) => d.code === "source_start_failed");
      assert.equal(diagnostic?.source, "failing");
      assert.match(diagnostic!.message, /connection refused/);
      assert.deepEqual(
        agent.registry.list().map((t) => t.definition.name),
        ["fine"],
      );
    } finally {
      await agent.close();
    }
  });

  it("starts every tool source at once", async () => {
    let release: () => void = () => {};
    const barrier = {
      arrived: 0,
      expected: 3,
      release: () => release(),
      wait: new Promise<void>((r) => (release = r)),
    };
    const plugin = definePlugin({
      name: "many",
      register: (context) => {
        for (const id of ["s1", "s2", "s3"]) context.addToolSource(barrierSource(id, barrier));
      },
    });
    const agent = await createAgent({ config: false, plugins: [plugin] });
    await agent.close();
    assert.equal(barrier.arrived, 3);
  });

  it("stops start-up when the creator's signal aborts, and closes what started", async () => {
    const hanging = new InMemoryToolSource("hanging", []);
    let closed = false;
    hanging.start = (context) =>
      new Promise((_resolve, reject) =>
        context.signal.addEventListener("abort", () => reject(new Error("start aborted"))),
      );
    hanging.close = async () => {
      closed = true;
    };
    const plugin = definePlugin({
      name: "hang",
      register: (context) => void context.addToolSource(hanging),
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("user pressed Ctrl-C")), 30);
    await assert.rejects(
      createAgent({ config: false, plugins: [plugin], signal: controller.signal }),
      /Ctrl-C/,
    );
    assert.equal(closed, true);
  });

  it("does not hang on a source whose close never returns", async () => {
    const stuck = new InMemoryToolSource("stuck", []);
    stuck.close = () => new Promise(() => {});
    const closed: string[] = [];
    const plugin = definePlugin({
      name: "stuck",
      register: (context) => {
        context.addToolSource(stuck);
        context.onClose(() => void closed.push("hook"));
      },
    });
    const agent = await createAgent({ config: false, plugins: [plugin], closeTimeoutMs: 50 });
    await agent.close();
    assert.deepEqual(closed, ["hook"]);
    assert.ok(agent.diagnostics().some((d) => d.code === "close_timeout" && d.source === "stuck"));
  });

  it("gives every agent its own container and registry", async () => {
    const one = await createAgent({ config: false, plugins: [toolsPlugin("p", "only_in_one")] });
    const two = await createAgent({ config: false, plugins: [] });
    try {
      assert.notEqual(one.registry, two.registry);
      assert.equal(two.registry.get("only_in_one"), undefined);
    } finally {
      await one.close();
      await two.close();
    }
  });

  it("lets a plugin resolve kernel services from the agent's container", async () => {
    let seen: unknown;
    const plugin = definePlugin({
      name: "inspector",
      register: (context) => {
        seen = context.container.resolve(ToolRegistry);
      },
    });
    const agent = await createAgent({ config: false, plugins: [plugin] });
    await agent.close();
    assert.equal(seen, agent.registry);
  });
});

describe("plugin config sections and system prompt", () => {
  it("validates a plugin's own section and warns about sections nobody reads", async () => {
    const workspace = await createTempWorkspace();
    try {
      await workspace.writeConfig("project", "greeter:\n  greeting: 42\ngreter: {}\n");
      const plugin = definePlugin({
        name: "greeter",
        register: (context) => {
          for (const entry of context.config.section("greeter")) {
            const checked = z.object({ greeting: z.string() }).safeParse(entry.value);
            if (!checked.success) {
              const at = entry.locate(["greeting"]);
              context.report({
                stage: "config",
                severity: "error",
                message: "greeting must be text",
                ...at,
              });
            }
          }
        },
      });
      const agent = await createAgent({
        workspace: workspace.root,
        config: { homeDir: workspace.home },
        plugins: [plugin],
      });
      await agent.close();
      const diagnostics = agent.diagnostics();
      const invalid = diagnostics.find((d) => d.message === "greeting must be text");
      assert.equal(invalid?.line, 2);
      assert.equal(invalid?.column, 13);
      assert.equal(invalid?.source, "greeter");
      const unknown = diagnostics.find((d) => d.code === "unknown_section");
      assert.equal(unknown?.item, "greter");
      assert.equal(unknown?.line, 3);
    } finally {
      await workspace.cleanup();
    }
  });

  it("puts plugin sections into the system prompt with attribution and within budget", async () => {
    const provider = new ScriptedProvider([{ text: "ok" }]);
    const plugin = definePlugin({
      name: "docs",
      register: (context) => {
        context.addSystemPromptSection({
          id: "docs-index",
          title: "Docs index",
          content: "Use search_docs first.",
        });
        context.addSystemPromptSection({
          id: "big",
          title: "Huge",
          content: "x".repeat(500),
          maxChars: 100,
        });
      },
    });
    const agent = await createAgent({
      config: false,
      provider,
      plugins: [plugin],
      systemPrompt: "You are helpful.",
    });
    await agent.run("hi");
    await agent.close();
    const system = provider.requests[0]!.system;
    assert.match(system, /^You are helpful\./);
    assert.match(system, /## Docs index\n\(from docs\)\n\nUse search_docs first\./);
    assert.match(system, /400 more characters cut/);
    assert.ok(!system.includes("x".repeat(101)));
  });

  it("removes a plugin's prompt section when it is disposed", async () => {
    let dispose = () => {};
    const plugin = definePlugin({
      name: "temp",
      register: (context) => {
        const handle = context.addSystemPromptSection({
          id: "t",
          title: "Temporary",
          content: "now you see me",
        });
        dispose = () => handle.dispose();
      },
    });
    const agent = await createAgent({ config: false, plugins: [plugin] });
    assert.match(agent.systemPrompt(), /now you see me/);
    dispose();
    assert.doesNotMatch(agent.systemPrompt(), /now you see me/);
    await agent.close();
  });
});
