// A sub-agent in the real CLI (loaded with --plugin): its tool calls show on stderr indented
// and tagged with its name, its text stays inside its tool call, and stdout is the parent's
// answer alone.
import assert from "node:assert/strict";
import path from "node:path";
import { describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { createTempWorkspace } from "@pseudoclaude/testing";
import { runCli } from "./support/cli.js";

const CORE = pathToFileURL(
  path.resolve(import.meta.dirname, "..", "..", "packages", "core", "dist", "src", "index.js"),
).href;

describe("sub-agents in the CLI", () => {
  it("shows the child's tool calls tagged and keeps its text off stdout", async () => {
    const workspace = await createTempWorkspace("pc-subagent-cli-");
    try {
      await workspace.write(
        "reader.mjs",
        `import { subAgent } from ${JSON.stringify(CORE)};
export default subAgent({ name: "reader", description: "Reads files.", instructions: "Read.", tools: ["read_file"] });
`,
      );
      await workspace.write("notes.md", "the launch is on Friday\n");
      await workspace.write(
        "script.json",
        JSON.stringify([
          {
            tool_calls: [
              { id: "p1", name: "agent__reader", arguments: { prompt: "read notes.md" } },
            ],
          },
          { tool_calls: [{ id: "c1", name: "read_file", arguments: { path: "notes.md" } }] },
          { text: "CHILD: it says Friday." },
          { text: "The launch is on Friday." },
        ]),
      );
      const result = await runCli(workspace, [
        "run",
        "When is the launch?",
        "--script",
        "script.json",
        "--plugin",
        "reader.mjs",
      ]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout, "The launch is on Friday.\n");
      assert.match(result.stderr, /^> agent__reader \{"prompt":"read notes\.md"\}$/m);
      assert.match(result.stderr, /^ {2}\[reader\] > read_file \{"path":"notes\.md"\}$/m);
      assert.match(result.stderr, /^ {2}\[reader\] {3}read_file -> ok: /m);
      assert.match(result.stderr, /^ {2}agent__reader -> ok: CHILD: it says Friday\.$/m);
    } finally {
      await workspace.cleanup();
    }
  });
});
