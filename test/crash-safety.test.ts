import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { FileSessionStore } from "@pseudoclaude/core";
import { FileConsentStore } from "@pseudoclaude/core/consent";
import { FileCredentialStore } from "@pseudoclaude/plugin-mcp";
import { crashContent, crashSubject, crashTokens, crashTurn } from "./fixtures/crash/versions.js";

/**
 * Crash safety, by killing for real: a process writes one kind of the product's state in a
 * loop (an edited file through write_file and edit_file, approvals, OAuth tokens, a session
 * log) and is killed with SIGKILL at a random moment. What is on disk afterwards must be one
 * whole version, never a mix or a half: the old content or the new.
 */
const RUNS = Number(process.env.CRASH_RUNS ?? 6);
const WRITER = fileURLToPath(new URL("./fixtures/crash/write-loop.js", import.meta.url));

/** Start the writer, let it write for `delayMs`, then kill it without warning. */
async function killMidWrite(kind: string, dir: string, delayMs: number): Promise<void> {
  const child = spawn(process.execPath, [WRITER, kind, dir], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = once(child, "exit");
  const ready = await Promise.race([
    once(child.stdout, "data").then(() => true),
    exited.then(() => false),
  ]);
  assert.ok(ready, `the ${kind} writer died before it started: ${stderr}`);
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  assert.equal(child.exitCode, null, `the ${kind} writer stopped by itself: ${stderr}`);
  child.kill("SIGKILL");
  const [code, signal] = (await exited) as [number | null, string | null];
  assert.equal(signal, "SIGKILL", `exit ${code}: ${stderr}`);
}

/** Each run's kill moment, spread over the loop's first 400 ms. */
function delays(): number[] {
  return Array.from({ length: RUNS }, () => 5 + Math.floor(Math.random() * 400));
}

async function eachCrash(kind: string, check: (dir: string) => Promise<void>): Promise<void> {
  for (const delay of delays()) {
    const dir = await mkdtemp(path.join(os.tmpdir(), `pc-crash-${kind}-`));
    try {
      await killMidWrite(kind, dir, delay);
      await check(dir).catch((error: Error) => {
        error.message = `killed after ${delay} ms: ${error.message}`;
        throw error;
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}

/** The `v` in a name or value made by the writer (`server-12`, `access-12-…`). */
function versionIn(text: string, prefix: string): number {
  const match = new RegExp(`^${prefix}-(\\d+)`).exec(text);
  assert.ok(match, `${text.slice(0, 60)} is not a ${prefix} of the writer`);
  return Number(match[1]);
}

describe("crash safety: killed at a random moment of a write loop", () => {
  it("an edited file is one whole version, written or edited", { timeout: 180_000 }, async () => {
    await eachCrash("edited", async (dir) => {
      const text = await readFile(path.join(dir, "file.txt"), "utf8");
      const v = Number(/^version (\d+)\n/.exec(text)?.[1]);
      assert.ok(v >= 1, `no version header: ${text.slice(0, 80)}`);
      assert.ok(
        text === crashContent(v),
        `file.txt is not whole version ${v} (${text.length} chars)`,
      );
      // A temporary file may be left by the kill; it is never the file itself.
      for (const name of await readdir(dir))
        assert.ok(name === "file.txt" || /^\.file\.txt\.[0-9a-f]+\.tmp$/.test(name), name);
    });
  });

  it("approvals are all there up to the last whole write, and still readable", {
    timeout: 180_000,
  }, async () => {
    await eachCrash("approvals", async (dir) => {
      const file = path.join(dir, "approvals.json");
      const records = new FileConsentStore(file).list(dir);
      // Killed before the first write: no file, which is whole too. An empty file is not.
      const text = await readFile(file, "utf8").catch(() => undefined);
      if (text === undefined) return;
      assert.doesNotThrow(() => JSON.parse(text), "approvals.json is not whole JSON");
      const versions = records
        .map((record) => versionIn(record.name, "server"))
        .sort((a, b) => a - b);
      assert.ok(versions.length > 0, "a readable file lost its approvals");
      assert.deepEqual(
        versions,
        Array.from({ length: versions.length }, (_, i) => i + 1),
      );
      for (const record of records) {
        const subject = crashSubject(versionIn(record.name, "server"));
        assert.equal(record.digest, subject.digest);
        assert.equal(record.summary, subject.summary);
      }
      // The store still writes after the crash: a file it could not read would refuse.
      new FileConsentStore(file).approve(dir, [crashSubject(0)]);
    });
  });

  it("OAuth tokens are whole sets, never an access token of one write with the refresh token of another", {
    timeout: 180_000,
  }, async () => {
    await eachCrash("tokens", async (dir) => {
      const file = path.join(dir, "oauth-credentials.json");
      const text = await readFile(file, "utf8").catch(() => undefined);
      if (text === undefined) return;
      assert.doesNotThrow(() => JSON.parse(text), "the credentials file is not whole JSON");
      const store = new FileCredentialStore(file);
      let seen = 0;
      for (const server of [0, 1, 2]) {
        const { tokens } = store.get(`https://server-${server}.example/mcp`);
        if (!tokens) continue;
        seen += 1;
        const v = versionIn(String(tokens.access_token), "access");
        assert.equal(v % 3, server, "tokens under another server's URL");
        assert.deepEqual(tokens, crashTokens(v));
      }
      assert.ok(seen > 0, "a readable credentials file lost its tokens");
    });
  });

  it("a session log keeps every whole turn, drops at most a torn last line, and takes the next turn", {
    timeout: 180_000,
  }, async () => {
    await eachCrash("sessions", async (dir) => {
      const store = new FileSessionStore({ workspace: dir, folder: path.join(dir, "sessions") });
      const loaded = await store.load("crash-session");
      if (!loaded) return; // killed before the first append
      const versions = loaded.entries.map((entry) => {
        assert.equal(entry.type, "turn");
        const v = versionIn(
          String((entry as { messages: Array<{ content?: string }> }).messages[0]?.content).replace(
            "prompt ",
            "prompt-",
          ),
          "prompt",
        );
        assert.deepEqual(entry, crashTurn(v), `turn ${v} is not whole`);
        return v;
      });
      assert.deepEqual(
        versions,
        Array.from({ length: versions.length }, (_, i) => i + 1),
      );
      assert.ok(loaded.diagnostics.length <= 1, JSON.stringify(loaded.diagnostics));
      await store.append("crash-session", [crashTurn(versions.length + 1)]);
      const again = await store.load("crash-session");
      assert.equal(again?.entries.length, versions.length + 1, "the next turn after the crash");
    });
  });
});
