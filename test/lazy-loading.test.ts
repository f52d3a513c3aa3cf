import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import path from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const here = path.dirname(fileURLToPath(import.meta.url));
const script = path.join(here, "fixtures", "lazy", "what-loads.js");

interface Loaded {
  zodEsm: boolean;
  zodCjs: boolean;
  sdk: boolean;
  messages: string[];
}

/** Run one step in a fresh process and read what it loaded. */
async function whatLoads(step: string): Promise<Loaded> {
  const { stdout } = await promisify(execFile)(process.execPath, [script, step], {
    timeout: 30_000,
  });
  return JSON.parse(stdout) as Loaded;
}

describe("what an import loads", () => {
  it("importing core and the MCP plugin loads neither zod nor the MCP SDK", async () => {
    const loaded = await whatLoads("import");
    assert.deepEqual(loaded, { zodEsm: false, zodCjs: false, sdk: false, messages: [] });
  });

  it("an agent validates its servers with zod's ES build, and loads no second copy", async () => {
    const loaded = await whatLoads("agent");
    assert.equal(loaded.zodEsm, true);
    assert.equal(loaded.zodCjs, false);
    assert.ok(
      loaded.messages.some((message) => /broken.*command/.test(message)),
      `the invalid server is reported: ${JSON.stringify(loaded.messages)}`,
    );
  });

  it("the MCP config reader called before any agent still validates (zod's CommonJS build)", async () => {
    const loaded = await whatLoads("load-servers");
    assert.equal(loaded.zodCjs, true);
    assert.ok(
      loaded.messages.some((message) => /broken.*command/.test(message)),
      `the invalid server is reported: ${JSON.stringify(loaded.messages)}`,
    );
  });
});
