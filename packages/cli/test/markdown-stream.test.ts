import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MarkdownStream } from "../src/chat/markdown-stream.js";

/** A renderer that shows which blocks it was given. */
const bracket = (markdown: string) => `[${markdown.trim()}]\n`;

describe("the model's Markdown as it streams", () => {
  it("renders a block once a blank line closes it, and the rest at the end", () => {
    const stream = new MarkdownStream(bracket);
    assert.equal(stream.push("Read **b"), "");
    assert.equal(stream.push(".txt** first.\n"), "");
    assert.equal(stream.push("\n- one\n"), "[Read **b.txt** first.]\n");
    assert.equal(stream.push("- two"), "");
    assert.equal(stream.flush(), "[- one\n- two]\n");
    assert.equal(stream.flush(), "");
  });

  it("keeps a code block whole, blank lines inside it included", () => {
    const stream = new MarkdownStream(bracket);
    assert.equal(stream.push("```js\nconst a = 1;\n\nconst b = 2;\n"), "");
    assert.equal(stream.push("```\n\nAfter."), "[```js\nconst a = 1;\n\nconst b = 2;\n```]\n");
    assert.equal(stream.flush(), "[After.]\n");
  });

  it("starts each answer afresh, even after a code block left open", () => {
    const stream = new MarkdownStream(bracket);
    assert.equal(stream.push("```\ncut off\n\n"), "");
    assert.equal(stream.flush(), "[```\ncut off]\n");
    assert.equal(stream.push("Next.\n\nMore"), "[Next.]\n");
  });

  it("passes text as it comes without a renderer", () => {
    const stream = new MarkdownStream(undefined);
    assert.equal(stream.push("Read **b"), "Read **b");
    assert.equal(stream.push(".txt**\n\n"), ".txt**\n\n");
    assert.equal(stream.flush(), "");
  });
});
