import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { describe, it } from "node:test";

const root = new URL("../../", import.meta.url);

describe("README", () => {
  it("shows exactly the compose example that CI runs", async () => {
    const readme = await readFile(new URL("README.md", root), "utf8");
    const example = await readFile(new URL("examples/compose-agent.ts", root), "utf8");
    // The block may carry its snippet marker (see docs-snippets.test.ts) on the line above.
    const block =
      /## Compose an agent[^\n]*\n+(?:<!-- snippet: [^\n]+ -->\n)?```ts\n([\s\S]*?)```/.exec(
        readme,
      )?.[1];
    assert.ok(block, "the README has a compose example");
    const code = example
      .split("\n")
      .filter((line) => !line.startsWith("// The README"))
      .join("\n");
    assert.equal(block.trim(), code.trim());
    // The first example a user copies needs only what an app installs: no testing package,
    // and one tool needs no plugin or source of its own.
    assert.doesNotMatch(block, /@pseudoclaude\/testing|InMemoryToolSource|definePlugin/);
    assert.match(block, /tools: \[forecast\]/);
  });

  it("keeps the two set-up commands", async () => {
    const readme = await readFile(new URL("README.md", root), "utf8");
    assert.match(readme, /npm ci && npm start/);
    assert.match(readme, /npm ci && npm run demo/);
    assert.match(readme, /npm ci && npm test/);
  });
});
