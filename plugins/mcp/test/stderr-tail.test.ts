import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { StderrTail } from "../src/index.js";

describe("stderr tail", () => {
  it("keeps only the last lines, each clipped, however much is written", () => {
    const tail = new StderrTail(5, 20);
    for (let i = 0; i < 100_000; i++) tail.push(`line ${i} ${"x".repeat(50)}\n`);
    const kept = tail.snapshot();
    assert.equal(kept.length, 5);
    assert.match(kept[4]!, /^line 99999 x+…$/);
    assert.ok(kept.every((line) => line.length <= 21));
    assert.ok(tail.bytesSeen > 5_000_000);
    assert.match(
      tail.describe(2),
      /^\[3 earlier lines and \d+ earlier bytes not shown\]\nline 99998/,
    );
  });

  it("joins lines split across chunks", () => {
    const tail = new StderrTail();
    tail.push("hel");
    tail.push("lo\nwor");
    assert.deepEqual(tail.snapshot(), ["hello", "wor"]);
  });
});
