import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { convertCallResult } from "../src/index.js";

const options = { server: "srv", remoteName: "tool", maxOutputChars: 100_000 };

describe("converting tools/call results", () => {
  it("keeps every content kind and the structured value", () => {
    const result = convertCallResult(
      {
        content: [
          { type: "text", text: "hi" },
          { type: "image", data: "AAAA", mimeType: "image/png" },
          { type: "audio", data: "BBBB", mimeType: "audio/wav" },
          { type: "resource_link", uri: "file:///a", name: "a", size: 3 },
          { type: "resource", resource: { uri: "memo://1", text: "inline" } },
          {
            type: "resource",
            resource: { uri: "memo://2", blob: "CCCC", mimeType: "application/x" },
          },
        ],
        structuredContent: { n: 1 },
      },
      options,
    );
    assert.equal(result.ok, true);
    assert.deepEqual(
      result.content.map((block) => block.type),
      ["text", "image", "audio", "resource_link", "resource", "resource"],
    );
    assert.deepEqual(result.content[3], {
      type: "resource_link",
      uri: "file:///a",
      name: "a",
      size: 3,
    });
    assert.deepEqual(result.structured, { n: 1 });
  });

  it("shows structured output as text when the server sent no content", () => {
    const result = convertCallResult({ content: [], structuredContent: { answer: 42 } }, options);
    assert.deepEqual(result.content, [{ type: "text", text: '{"answer":42}' }]);
  });

  it("keeps the server's _meta under remote_meta and never lets it replace local keys", () => {
    const result = convertCallResult(
      {
        content: [{ type: "text", text: "x" }],
        meta: { server: "evil", remote_tool: "forged", trace: "t1" },
      },
      options,
    );
    assert.equal(result.metadata.server, "srv");
    assert.equal(result.metadata.remote_tool, "tool");
    assert.deepEqual(result.metadata.remote_meta, {
      server: "evil",
      remote_tool: "forged",
      trace: "t1",
    });
  });

  it("turns isError into mcp_tool_error with the server's text", () => {
    const result = convertCallResult(
      { content: [{ type: "text", text: "db locked" }], isError: true },
      options,
    );
    assert.equal(result.ok, false);
    assert.deepEqual(result.error, { code: "mcp_tool_error", message: "db locked" });
    const silent = convertCallResult({ content: [], isError: true }, options);
    assert.match(silent.error!.message, /returned an error/);
  });

  it("cuts text beyond max_output_chars and says so", () => {
    const result = convertCallResult(
      {
        content: [
          { type: "text", text: "a".repeat(60) },
          { type: "text", text: "b".repeat(60) },
        ],
      },
      { ...options, maxOutputChars: 100 },
    );
    const texts = result.content.map((block) => (block.type === "text" ? block.text : ""));
    assert.equal(texts[0], "a".repeat(60));
    assert.equal(texts[1], "b".repeat(40));
    assert.match(texts[2]!, /output truncated: showing 100 of 120 characters/);
    assert.equal(result.metadata.truncated, true);
    assert.equal(result.metadata.original_chars, 120);
  });

  it("replaces an unknown content type with an explicit placeholder", () => {
    const result = convertCallResult({ content: [{ type: "hologram", data: 1 }] }, options);
    assert.match(
      (result.content[0] as { text: string }).text,
      /unsupported MCP content of type "hologram"/,
    );
    assert.deepEqual(result.metadata.unsupported_content, ["hologram"]);
  });
});
