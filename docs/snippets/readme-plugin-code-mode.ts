// The example of this package's README.md: compiled by CI, so the README npm shows cannot go stale.
import { type CallAnswer, runProgram } from "@pseudoclaude/plugin-code-mode/sandbox";

// #region use
const outcome = await runProgram({
  source: `
    const [issues, prs] = await Promise.all([
      tools.github.search_issues({ q: "is:open label:bug" }),
      tools.github.search_issues({ q: "is:pr is:open" }),
    ]);
    return { bugs: issues.total_count, prs: prs.total_count };
  `,
  tools: ["mcp__github__search_issues"],
  namespaces: { "github.search_issues": "mcp__github__search_issues" },
  host: {
    // Each inner call the program makes; a real host runs it through the registry and policy.
    async call(index, name, args): Promise<CallAnswer> {
      console.log(`call #${index}: ${name}`, args);
      return { ok: true, value: { total_count: 3 }, atMs: Date.now() };
    },
  },
  start: { nowMs: Date.now(), seed: [1, 2, 3, 4] },
});
if (outcome.ok) console.log(outcome.value);
else console.error(`${outcome.code}: ${outcome.message}`);
// #endregion
