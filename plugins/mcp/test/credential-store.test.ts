import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { FileCredentialStore } from "../src/index.js";

async function withDir(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "pc-credentials-"));
  try {
    await body(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe("the OAuth credential store", () => {
  it("keeps credentials per server URL in a file only the user can read, written whole", async () => {
    await withDir(async (dir) => {
      const file = path.join(dir, ".PseudoClaude", "oauth-credentials.json");
      const store = new FileCredentialStore(file);
      const previous = process.umask(0o022);
      try {
        store.update("https://a.example.com/mcp", () => ({
          tokens: { access_token: "A", obtained_at: 1 },
        }));
        store.update("https://b.example.com/mcp", () => ({ client: { client_id: "b" } }));
      } finally {
        process.umask(previous);
      }
      assert.equal((await stat(file)).mode & 0o777, 0o600);
      assert.deepEqual(
        await readdir(path.dirname(file)),
        ["oauth-credentials.json"],
        "no temporary file left",
      );
      assert.equal(store.get("https://a.example.com/mcp").tokens?.access_token, "A");
      assert.equal(store.get("https://b.example.com/mcp").client?.client_id, "b");
      assert.deepEqual(store.get("https://c.example.com/mcp"), {});
      assert.equal(store.delete("https://a.example.com/mcp"), true);
      assert.equal(store.delete("https://a.example.com/mcp"), false);
      assert.deepEqual(Object.keys(JSON.parse(await readFile(file, "utf8")).servers), [
        "https://b.example.com/mcp",
      ]);
    });
  });

  it("never overwrites a file it cannot read, and says which file to fix", async () => {
    await withDir(async (dir) => {
      const file = path.join(dir, "oauth-credentials.json");
      await writeFile(file, "{ broken");
      const store = new FileCredentialStore(file);
      assert.deepEqual(store.get("https://a.example.com/mcp"), {});
      assert.throws(
        () => store.update("https://a.example.com/mcp", () => ({ tokens: { access_token: "A" } })),
        (error: Error) => error.message.includes(file) && /left as it is/.test(error.message),
      );
      assert.equal(await readFile(file, "utf8"), "{ broken");
    });
  });
});
