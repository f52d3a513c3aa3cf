// The MCP client's wire has one owner per concern, guarded: a second id counter, a second table
// of waiting requests or a write into an SDK's private field would bring back what the
// connection replaced (four id spaces, three pending maps, a patched transport). Each check
// reads the plugin's sources.
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));

/** Every TypeScript source file of the plugin, relative to its src/, comments left out. */
async function sources(): Promise<Array<{ file: string; code: string; text: string }>> {
  const found: Array<{ file: string; code: string; text: string }> = [];
  for (const file of await readdir(SRC, { recursive: true })) {
    if (!file.endsWith(".ts") || file.endsWith(".d.ts")) continue;
    const text = await readFile(path.join(SRC, file), "utf8");
    found.push({ file: file.split(path.sep).join("/"), code: withoutComments(text), text });
  }
  return found.sort((a, b) => a.file.localeCompare(b.file));
}

function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
}

async function filesMatching(pattern: RegExp): Promise<string[]> {
  return (await sources()).filter(({ code }) => pattern.test(code)).map(({ file }) => file);
}

describe("the MCP wire's owners", () => {
  it("reads the sources it guards", async () => {
    const files = (await sources()).map(({ file }) => file);
    assert.ok(files.length > 60, `${files.length} files`);
    assert.ok(files.includes("wire/connection.ts"));
  });

  it("one id space: only the connection counts request ids", async () => {
    assert.deepEqual(await filesMatching(/\bnext(?:Id)?\s*(?:\+=|\+\+)|\+\+\s*this\.next/), [
      "wire/connection.ts",
    ]);
  });

  it("one table of waiting requests: only the connection keeps requests by id", async () => {
    const byId = /new Map<\s*(?:number|string\s*\|\s*number|number\s*\|\s*string|RequestId)\s*,/;
    assert.deepEqual(await filesMatching(byId), ["wire/connection.ts"]);
  });

  it("one sender of JSON-RPC requests on a server's transport: the connection", async () => {
    // The era question over HTTP is one POST before any session, with a constant id.
    assert.deepEqual(await filesMatching(/jsonrpc:\s*"2\.0",\s*id\b/), [
      "session/http-era-probe.ts",
      "wire/connection.ts",
    ]);
    assert.doesNotMatch(
      (await readFile(path.join(SRC, "session/http-era-probe.ts"), "utf8")).replace(
        /\/\*[\s\S]*?\*\//g,
        "",
      ),
      /\+\+|\+= 1/,
    );
  });

  it("writes no SDK's private field and patches no handler of one", async () => {
    // `_meta` is the protocol's own field, not an SDK's.
    assert.deepEqual(await filesMatching(/\._(?!meta\b)[a-zA-Z]\w*\s*=(?!=)/), []);
    assert.deepEqual(await filesMatching(/Object\.defineProperty\(/), []);
  });

  it("at most five casts to never or through unknown, each with a comment that says why", async () => {
    const casts: string[] = [];
    for (const { file, text } of await sources()) {
      const lines = text.split("\n");
      lines.forEach((line, index) => {
        if (!/\bas never\b|\bas unknown as\b/.test(line) || /^\s*(\/\/|\*)/.test(line)) return;
        const before = lines.slice(Math.max(0, index - 3), index).join("\n");
        casts.push(`${file}:${index + 1}${/\/\/|\*\//.test(before) ? "" : " (no comment)"}`);
      });
    }
    assert.ok(casts.length <= 5, casts.join("\n"));
    assert.deepEqual(
      casts.filter((cast) => cast.endsWith("(no comment)")),
      [],
    );
  });

  it("only the wire, the session, the tasks, OAuth and resource templates use the MCP client", async () => {
    const users = await filesMatching(
      /from "@modelcontextprotocol\/client"|import\("@modelcontextprotocol\/client"\)/,
    );
    const folders = [...new Set(users.map((file) => file.split("/")[0]))].sort();
    assert.deepEqual(folders, ["features", "oauth", "session", "tasks", "wire"]);
    assert.deepEqual(await filesMatching(/@modelcontextprotocol\/sdk/), []);
  });

  it("OAuth in one folder, which imports nothing from the session or the wire above it", async () => {
    const oauth = (await sources()).filter(({ file }) => file.startsWith("oauth/"));
    assert.ok(
      oauth.some(({ file }) => file === "oauth/login.ts"),
      "the login is OAuth's",
    );
    const upward = oauth.filter(({ code }) => /from "\.\.\/(?:session|wire)\//.test(code));
    assert.deepEqual(
      upward.map(({ file }) => file),
      [],
    );
    // The SDK's auth() is run by OAuth's login and, for a refused request, by the wire's access.
    const runsAuth = /import\s*\{[^}]*\bauth\b[^}]*\}\s*from\s*"@modelcontextprotocol\/client"/;
    assert.deepEqual(await filesMatching(runsAuth), [
      "oauth/login.ts",
      "oauth/probe-login.ts",
      "wire/http-access.ts",
    ]);
  });
});
