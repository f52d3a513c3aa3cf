// docs/security.md carries the table of every setting a workspace may use only with the user's
// consent. It is what `pseudoclaude trust table` prints from the declarations next to the code
// that enforces the rule, so the page cannot drift from what is enforced.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { CLI_BIN } from "./support/cli.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const START = "<!-- widening-table:start -->";
const END = "<!-- widening-table:end -->";

describe("docs/security.md", () => {
  it("lists exactly the widening settings the code declares", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [CLI_BIN, "trust", "table"], {
      cwd: ROOT,
    });
    const page = await readFile(`${ROOT}docs/security.md`, "utf8");
    const start = page.indexOf(START);
    const end = page.indexOf(END);
    assert.ok(start !== -1 && end > start, "the page has the table's markers");
    const documented = page.slice(start + START.length, end).trim();
    assert.equal(
      documented,
      stdout.trim(),
      "docs/security.md is out of date: paste the output of `pseudoclaude trust table` between its markers",
    );
    for (const setting of [
      "permissions.allow",
      "provider.base_url",
      "builtin_tools.extra_roots",
      "mcp_servers.<name>.inherit_env",
    ])
      assert.ok(documented.includes(`\`${setting}\``), `${setting} is in the table`);
  });
});
