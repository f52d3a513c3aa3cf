import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import { show, textOf, withTools } from "./support/agent.js";

const numbered = (count: number) =>
  Array.from({ length: count }, (_, index) => `line ${index + 1}`).join("\n");

describe("read_file", () => {
  it("shows the file with cat -n line numbers", async () => {
    await withTools(
      { setup: (w) => w.write("a.txt", "alpha\r\nbeta\n\ngamma").then(() => {}) },
      async ({ call }) => {
        const result = await call("read_file", { path: "a.txt" });
        assert.equal(result.ok, true, show(result));
        assert.equal(textOf(result), "     1\talpha\n     2\tbeta\n     3\t\n     4\tgamma");
        assert.deepEqual(result.structured, {
          path: "a.txt",
          start_line: 1,
          end_line: 4,
          more: false,
        });
      },
    );
  });

  it("pages a large file and says which offset to read next", async () => {
    const big = {
      plugin: { maxOutputChars: 100_000 },
      setup: (w: { write(f: string, t: string): Promise<string> }) =>
        w.write("big.txt", `${numbered(5000)}\n`).then(() => {}),
    };
    await withTools(big, async ({ call }) => {
      const first = await call("read_file", { path: "big.txt" });
      const lines = textOf(first).split("\n");
      assert.equal(lines[0], "     1\tline 1");
      assert.equal(lines[1999], "  2000\tline 2000");
      assert.match(lines[2000] ?? "", /lines 1-2000 shown .*read again with offset 2001/);
      assert.equal(lines.length, 2001);
      const page = await call("read_file", { path: "big.txt", offset: 4999, limit: 10 });
      assert.equal(textOf(page), "  4999\tline 4999\n  5000\tline 5000");
      assert.equal((page.structured as { more: boolean }).more, false);
      const past = await call("read_file", { path: "big.txt", offset: 6000 });
      assert.equal(past.ok, true);
      assert.match(textOf(past), /has 5000 lines; offset 6000 is past the end/);
    });
  });

  it("cuts very long lines and stops at the output cap", async () => {
    await withTools(
      {
        plugin: { maxOutputChars: 5_000 },
        setup: async (w) => {
          await w.write("long.txt", `${"x".repeat(1_000_000)}\nshort\n`);
          await w.write("many.txt", numbered(3000));
        },
      },
      async ({ call }) => {
        const long = await call("read_file", { path: "long.txt" });
        const [first, second] = textOf(long).split("\n");
        assert.ok((first ?? "").length < 2_100, `first line is cut: ${(first ?? "").length}`);
        assert.match(first ?? "", /line cut: 1000000 bytes/);
        assert.equal(second, "     2\tshort");
        const many = await call("read_file", { path: "many.txt" });
        assert.ok(textOf(many).length < 5_200, `bounded: ${textOf(many).length}`);
        assert.match(
          textOf(many),
          /output cap of 5000 characters\); more follow: read again with offset \d+/,
        );
      },
    );
  });

  it("refuses a binary file with a clear message", async () => {
    await withTools(
      {
        setup: async (w) => {
          await writeFile(
            path.join(w.root, "image.png"),
            Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 1, 2, 3]),
          );
        },
      },
      async ({ call }) => {
        const result = await call("read_file", { path: "image.png" });
        assert.equal(result.ok, false);
        assert.equal(result.error?.code, "tool_error");
        assert.match(
          result.error?.message ?? "",
          /image\.png is a binary file \(11 B\); read_file shows text files only/,
        );
      },
    );
  });

  it("says so for an empty file, a directory, a missing file and a FIFO", async () => {
    await withTools(
      { setup: (w) => w.write("empty.txt", "").then(() => {}) },
      async ({ call, workspace }) => {
        assert.equal(textOf(await call("read_file", { path: "empty.txt" })), "empty.txt is empty.");
        const folder = await call("read_file", { path: "." });
        assert.equal(folder.error?.code, "tool_error");
        assert.match(textOf(folder), /is a directory; use list_dir/);
        const missing = await call("read_file", { path: "nope.txt" });
        assert.equal(missing.error?.code, "tool_error");
        assert.equal(textOf(missing), "nope.txt does not exist.");
        execFileSync("mkfifo", [path.join(workspace.root, "pipe")]);
        const fifo = await call("read_file", { path: "pipe" });
        assert.equal(textOf(fifo), "pipe is not a regular file.");
        assert.match(
          textOf(await call("grep", { pattern: "x", path: "pipe" })),
          /not a regular file/,
        );
      },
    );
  });
});

describe("list_dir", () => {
  it("lists directories first, then files with sizes and links with targets", async () => {
    await withTools(
      {
        setup: async (w) => {
          await w.write("b.txt", "12345");
          await w.write("src/index.ts", "");
          await w.write(".hidden", "");
          const { symlink } = await import("node:fs/promises");
          await symlink("b.txt", path.join(w.root, "a-link"));
        },
      },
      async ({ call }) => {
        const result = await call("list_dir", {});
        assert.equal(result.ok, true, show(result));
        assert.equal(
          textOf(result),
          [
            ".: 4 entries (1 directory, 3 other)",
            "src/",
            ".hidden  (0 B)",
            "a-link -> b.txt",
            "b.txt  (5 B)",
          ].join("\n"),
        );
        const nested = await call("list_dir", { path: "src" });
        assert.match(textOf(nested), /^src: 1 entry/);
      },
    );
  });

  it("caps the entries and says how many were left out", async () => {
    await withTools(
      {
        setup: async (w) => {
          for (let index = 0; index < 30; index++)
            await w.write(`f${String(index).padStart(2, "0")}.txt`, "");
        },
      },
      async ({ call }) => {
        const result = await call("list_dir", { limit: 10 });
        const lines = textOf(result).split("\n");
        assert.equal(lines.length, 12);
        assert.equal(lines.at(-1), "[20 more entries not shown (limit 10)]");
        assert.equal((result.structured as { truncated: boolean }).truncated, true);
      },
    );
  });

  it("points at read_file for a file", async () => {
    await withTools({ setup: (w) => w.write("a.txt", "x").then(() => {}) }, async ({ call }) => {
      const result = await call("list_dir", { path: "a.txt" });
      assert.equal(result.error?.code, "tool_error");
      assert.match(textOf(result), /not a directory; use read_file/);
    });
  });
});
