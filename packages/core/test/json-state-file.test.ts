import assert from "node:assert/strict";
import { mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { JsonStateFile } from "../src/files/json-state-file.js";

interface Counts {
  counts: Record<string, number>;
}

function stateIn(dir: string): JsonStateFile<Counts> {
  return new JsonStateFile<Counts>(
    path.join(dir, "state.json"),
    (data): data is Counts =>
      typeof data === "object" && data !== null && typeof (data as Counts).counts === "object",
    () => ({ counts: {} }),
    "an object with counts",
  );
}

describe("JsonStateFile reads", () => {
  it("sees what another process wrote, whether renamed into place or written over", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "state-"));
    try {
      const state = stateIn(dir);
      assert.deepEqual(state.read(), { ok: true, data: { counts: {} } }, "missing reads empty");
      state.write({ counts: { a: 1 } });
      assert.deepEqual(state.read(), { ok: true, data: { counts: { a: 1 } } });
      // Another process's atomic write: a new file renamed over this one, the same size.
      const other = path.join(dir, "other.json");
      writeFileSync(other, '{"counts":{"a":2}}\n');
      renameSync(other, state.file);
      assert.deepEqual(state.read(), { ok: true, data: { counts: { a: 2 } } });
      // Written over in place later on (an editor): the modification time tells.
      await new Promise((resolve) => setTimeout(resolve, 30));
      writeFileSync(state.file, '{"counts":{"a":3}}\n');
      assert.deepEqual(state.read(), { ok: true, data: { counts: { a: 3 } } });
      writeFileSync(state.file, "{ not json");
      const broken = state.read();
      assert.equal(broken.ok, false);
      rmSync(state.file);
      assert.deepEqual(state.read(), { ok: true, data: { counts: {} } }, "deleted reads empty");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("hands out copies: changing what was read changes nothing until it is written", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "state-"));
    try {
      const state = stateIn(dir);
      state.write({ counts: { a: 1 } });
      const first = state.read();
      assert.ok(first.ok);
      first.data.counts.a = 99;
      const second = state.read();
      assert.deepEqual(second, { ok: true, data: { counts: { a: 1 } } });
      assert.ok(second.ok);
      second.data.counts.b = 5;
      assert.deepEqual(state.read(), { ok: true, data: { counts: { a: 1 } } });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
