import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { JsonLineReader } from "../src/wire/json-line-reader.js";

const line = (value: unknown) => `${JSON.stringify(value)}\n`;
const messages = (items: ReturnType<JsonLineReader["push"]>) =>
  items.map((item) => ("message" in item ? item.message : `error: ${item.error.message}`));

describe("reading JSON-RPC lines from a stdio server", () => {
  it("joins a message split across chunks and reads several from one chunk", () => {
    const reader = new JsonLineReader();
    const one = line({ jsonrpc: "2.0", id: 1, result: {} });
    assert.deepEqual(messages(reader.push(Buffer.from(one.slice(0, 10)))), []);
    const two = line({ jsonrpc: "2.0", method: "notifications/progress" });
    assert.deepEqual(messages(reader.push(Buffer.from(`${one.slice(10)}${two}`))), [
      { jsonrpc: "2.0", id: 1, result: {} },
      { jsonrpc: "2.0", method: "notifications/progress" },
    ]);
  });

  it("accepts CRLF and reports lines that are not JSON-RPC without stopping", () => {
    const reader = new JsonLineReader();
    const out = messages(
      reader.push(
        Buffer.from(
          `debug output\r\n${line({ id: 2 })}${JSON.stringify({ jsonrpc: "2.0", id: 3, result: {} })}\r\n`,
        ),
      ),
    );
    assert.match(String(out[0]), /^error: Not JSON on the server's stdout: debug output/);
    assert.match(String(out[1]), /^error: Not a JSON-RPC 2\.0 message/);
    assert.deepEqual(out[2], { jsonrpc: "2.0", id: 3, result: {} });
  });

  it("skips blank lines, with or without spaces and CR, and keeps a CR inside a line", () => {
    const reader = new JsonLineReader();
    const out = messages(
      reader.push(
        Buffer.from(
          `\n   \n\r\n \t\r\n${JSON.stringify({ jsonrpc: "2.0", id: 4, result: { text: "a\rb" } })}\r\n`,
        ),
      ),
    );
    assert.deepEqual(out, [{ jsonrpc: "2.0", id: 4, result: { text: "a\rb" } }]);
  });

  it("drops a message over the size cap and reads the next one", () => {
    const reader = new JsonLineReader(100);
    const first = messages(
      reader.push(Buffer.from(`{"jsonrpc":"2.0","id":1,"result":{"x":"${"y".repeat(200)}`)),
    );
    assert.match(String(first[0]), /larger than 100 bytes; dropped/);
    const rest = messages(
      reader.push(
        Buffer.from(`${"z".repeat(50)}"}}\n${line({ jsonrpc: "2.0", id: 2, result: {} })}`),
      ),
    );
    assert.deepEqual(rest, [{ jsonrpc: "2.0", id: 2, result: {} }]);
  });
});
