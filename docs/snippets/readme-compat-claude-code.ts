// The example of this package's README.md: compiled by CI, so the README npm shows cannot go stale.
import { readFileSync } from "node:fs";
import { readFrontMatter } from "@pseudoclaude/compat-claude-code";

const read = readFrontMatter(readFileSync(".claude/agents/reviewer.md", "utf8"));
if (read.kind === "ok") console.log(read.frontMatter);
else console.log(`not readable as Claude Code reads it: ${read.kind}`);
