import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { type SseEvent, SseEventReader } from "../src/wire/sse-event-reader.js";

const STREAM =
  ": a comment\r\n" +
  "id: e1\r\n" +
  "data:\r\n" +
  "\r\n" +
  "event: message\n" +
  'data: {"jsonrpc":"2.0",\n' +
  'data: "id":1}\n' +
  "\n" +
  "retry: 500\r" +
  "data:no space\r" +
  "unknown: field\r" +
  "\r" +
  "event: ping\n\n";

const EXPECTED: SseEvent[] = [
  { data: "", id: "e1" },
  { data: '{"jsonrpc":"2.0",\n"id":1}', event: "message" },
  { data: "no space" },
];

describe("reading server-sent events", () => {
  it("reads ids, types, joined data lines and all three line ends, skipping comments", () => {
    assert.deepEqual(new SseEventReader().push(STREAM), EXPECTED);
  });

  it("reads the same events however the stream is cut into chunks", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: STREAM.length }), { maxLength: 12 }),
        (cuts) => {
          const points = [...new Set(cuts)].sort((a, b) => a - b);
          const reader = new SseEventReader();
          const events: SseEvent[] = [];
          let start = 0;
          for (const point of [...points, STREAM.length]) {
            events.push(...reader.push(STREAM.slice(start, point)));
            start = point;
          }
          assert.deepEqual(events, EXPECTED);
        },
      ),
    );
  });

  it("gives nothing for an event still being written", () => {
    const reader = new SseEventReader();
    assert.deepEqual(reader.push("data: half"), []);
    assert.deepEqual(reader.push(" of it\n"), []);
    assert.deepEqual(reader.push("\n"), [{ data: "half of it" }]);
  });
});
