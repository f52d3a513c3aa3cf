// The example of this package's README.md: compiled by CI, so the README npm shows cannot go stale.
import { createAgent, definePlugin } from "@pseudoclaude/core";
import {
  createTempWorkspace,
  createTestTool,
  InMemoryToolSource,
  ScriptedProvider,
} from "@pseudoclaude/testing";

const echo = createTestTool({ name: "echo", safety: "read_only" });
const workspace = await createTempWorkspace(); // a workspace and a home of its own
await workspace.write("notes.md", "# Notes\n");
const agent = await createAgent({
  workspace: workspace.root,
  config: false,
  plugins: [
    definePlugin({
      name: "test-tools",
      register(context) {
        context.addToolSource(new InMemoryToolSource("test", [echo]));
      },
    }),
  ],
  provider: new ScriptedProvider([
    { tool_calls: [{ name: "echo", arguments: { hi: 1 } }] },
    { text: "done" },
  ]),
});
await agent.run("call echo");
console.log(echo.calls.length); // 1
await agent.close();
await workspace.cleanup();
