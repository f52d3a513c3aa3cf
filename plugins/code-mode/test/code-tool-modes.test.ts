// The code tool as tools come and go (`auto` offers it from ten declared tools on, and its
// declarations follow the registry), the config section (a mode, limits, a mistake reported at
// its line), and cancellation: aborting the run stops the program and the call it waits on.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createAgent, definePlugin, type Tool } from "@pseudoclaude/core";
import {
  createTempWorkspace,
  createTestTool,
  InMemoryToolSource,
  ScriptedProvider,
} from "@pseudoclaude/testing";
import { CODE_TOOL_NAME, codeMode } from "../src/index.js";

function tools(count: number, prefix = "t"): Tool[] {
  return Array.from({ length: count }, (_, i) =>
    createTestTool({ name: `${prefix}${i}`, safety: "read_only", run: () => `${prefix}${i}` }),
  );
}

describe("the code tool's modes", () => {
  it("auto offers it from ten declared tools on, and follows the registry both ways", async () => {
    const source = new InMemoryToolSource("memory", tools(9));
    const agent = await createAgent({
      config: false,
      plugins: [
        definePlugin({ name: "m", register: (c) => void c.addToolSource(source) }),
        codeMode({ mode: "auto" }),
      ],
    });
    try {
      assert.equal(agent.registry.get(CODE_TOOL_NAME), undefined, "nine tools: not offered");
      source.upsert(createTestTool({ name: "extra", safety: "read_only" }));
      const offered = agent.registry.get(CODE_TOOL_NAME);
      assert.ok(offered, "the tenth tool brings it");
      assert.match(offered.definition.description, /extra\(input: /);
      source.upsert(createTestTool({ name: "later", safety: "read_only" }));
      assert.match(
        agent.registry.get(CODE_TOOL_NAME)?.definition.description ?? "",
        /later\(input: /,
        "a new tool is declared",
      );
      source.remove("extra", "later");
      assert.equal(agent.registry.get(CODE_TOOL_NAME), undefined, "back to nine: gone again");
    } finally {
      await agent.close();
    }
  });

  it("the config sets the mode and the limits; a mistake is reported at its line", async () => {
    const workspace = await createTempWorkspace("pc-code-mode-config-");
    try {
      await workspace.writeConfig("user", "code_mode:\n  mode: on\n  max_calls: 3\n");
      await workspace.writeConfig("project", "code_mode:\n  cpu_mss: 5\n");
      const agent = await createAgent({
        workspace: workspace.root,
        config: { homeDir: workspace.home, onError: "diagnose" },
        plugins: [codeMode({ defaultMode: "off" })],
      });
      try {
        const description = agent.registry.get(CODE_TOOL_NAME)?.definition.description ?? "";
        assert.match(description, /3 tool calls/, "the user's limit");
        const problem = agent.diagnostics().find((d) => d.source === "code-mode");
        assert.match(problem?.message ?? "", /cpu_mss/);
        assert.equal(problem?.line, 2);
      } finally {
        await agent.close();
      }
    } finally {
      await workspace.cleanup();
    }
  });

  it("aborting the run stops the program and the call it is waiting on", async () => {
    let aborted = false;
    const slow = createTestTool({
      name: "slow",
      safety: "read_only",
      run: (_args, context) =>
        new Promise((resolve) => {
          context.onAbort(() => {
            aborted = true;
            resolve("stopped");
          });
        }),
    });
    const source = new InMemoryToolSource("memory", [slow]);
    const agent = await createAgent({
      config: false,
      provider: new ScriptedProvider([
        {
          tool_calls: [
            {
              id: "p1",
              name: CODE_TOOL_NAME,
              arguments: { code: "await tools.slow({}); return 1;" },
            },
          ],
        },
        { text: "never" },
      ]),
      plugins: [
        definePlugin({ name: "m", register: (c) => void c.addToolSource(source) }),
        codeMode(),
      ],
    });
    try {
      const controller = new AbortController();
      agent.on("tool-run-start", ({ call }) => {
        if (call.name === "slow") setTimeout(() => controller.abort(new Error("Ctrl-C")), 20);
      });
      const result = await agent.run("go", { signal: controller.signal });
      assert.equal(result.stopReason, "aborted");
      assert.ok(aborted, "the inner call heard the abort");
      const program = result.toolCalls.find((call) => call.name === CODE_TOOL_NAME);
      assert.equal(program?.result.ok, false);
    } finally {
      await agent.close();
    }
  });
});
