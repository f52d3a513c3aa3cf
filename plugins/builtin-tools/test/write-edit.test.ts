import assert from "node:assert/strict";
import { chmod, readdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import { show, textOf, withTools } from "./support/agent.js";

describe("write_file", () => {
  it("creates a file and its missing parent folders", async () => {
    await withTools({}, async ({ call, workspace }) => {
      const result = await call("write_file", { path: "src/deep/new.ts", content: "one\ntwo\n" });
      assert.equal(result.ok, true, show(result));
      assert.equal(textOf(result), "Created src/deep/new.ts (2 lines, 8 B).");
      assert.equal(
        await readFile(path.join(workspace.root, "src/deep/new.ts"), "utf8"),
        "one\ntwo\n",
      );
    });
  });

  it("replaces a file atomically, keeping its permissions and leaving no temporary file", async () => {
    await withTools(
      {
        setup: async (w) => {
          await w.write("run.sh", "echo old\n");
          await chmod(path.join(w.root, "run.sh"), 0o751);
        },
      },
      async ({ call, workspace }) => {
        const result = await call("write_file", { path: "run.sh", content: "echo new\n" });
        assert.equal(textOf(result), "Replaced run.sh (1 line, 9 B).");
        const file = path.join(workspace.root, "run.sh");
        assert.equal(await readFile(file, "utf8"), "echo new\n");
        assert.equal((await stat(file)).mode & 0o777, 0o751);
        assert.deepEqual(await readdir(workspace.root), ["run.sh"]);
      },
    );
  });

  it("refuses to write over a directory", async () => {
    await withTools({ setup: (w) => w.write("src/a.ts", "").then(() => {}) }, async ({ call }) => {
      const result = await call("write_file", { path: "src", content: "x" });
      assert.equal(result.error?.code, "tool_error");
      assert.match(textOf(result), /src is a directory/);
    });
  });
});

describe("edit_file", () => {
  const setup =
    (content: string) => async (w: { write(file: string, text: string): Promise<string> }) => {
      await w.write("a.ts", content);
    };

  it("replaces a unique string and shows the edited lines", async () => {
    await withTools(
      { setup: setup("const a = 1;\nconst b = 2;\nconst c = 3;\n") },
      async ({ call, workspace }) => {
        const result = await call("edit_file", {
          path: "a.ts",
          old_string: "b = 2",
          new_string: "b = 20",
        });
        assert.equal(result.ok, true, show(result));
        assert.equal(
          await readFile(path.join(workspace.root, "a.ts"), "utf8"),
          "const a = 1;\nconst b = 20;\nconst c = 3;\n",
        );
        assert.equal(
          textOf(result),
          "Edited a.ts: replaced 1 occurrence.\nLines 1-3 now read:\n     1\tconst a = 1;\n     2\tconst b = 20;\n     3\tconst c = 3;",
        );
      },
    );
  });

  it("fails without writing when the string is missing or not unique, and says why", async () => {
    const original = "x = 1\ny = 1\nz = 1\n";
    await withTools({ setup: setup(original) }, async ({ call, workspace }) => {
      const missing = await call("edit_file", {
        path: "a.ts",
        old_string: "w = 1",
        new_string: "w = 2",
      });
      assert.equal(missing.error?.code, "tool_error");
      assert.match(textOf(missing), /old_string was not found in a\.ts/);
      const many = await call("edit_file", {
        path: "a.ts",
        old_string: " = 1",
        new_string: " = 2",
      });
      assert.equal(many.error?.code, "tool_error");
      assert.match(textOf(many), /occurs 3 times in a\.ts \(lines 1, 2, 3\).*replace_all/);
      assert.equal(await readFile(path.join(workspace.root, "a.ts"), "utf8"), original);
      const all = await call("edit_file", {
        path: "a.ts",
        old_string: " = 1",
        new_string: " = 2",
        replace_all: true,
      });
      assert.equal(all.ok, true, show(all));
      assert.match(textOf(all), /replaced 3 occurrences/);
      assert.equal(
        await readFile(path.join(workspace.root, "a.ts"), "utf8"),
        "x = 2\ny = 2\nz = 2\n",
      );
    });
  });

  it("inserts replacement text literally, $& and all", async () => {
    await withTools({ setup: setup("price: PRICE\n") }, async ({ call, workspace }) => {
      await call("edit_file", { path: "a.ts", old_string: "PRICE", new_string: "$& $1 $$" });
      assert.equal(await readFile(path.join(workspace.root, "a.ts"), "utf8"), "price: $& $1 $$\n");
    });
  });

  it("matches \\n in the arguments against a file with \\r\\n line endings", async () => {
    await withTools({ setup: setup("one\r\ntwo\r\nthree\r\n") }, async ({ call, workspace }) => {
      const result = await call("edit_file", {
        path: "a.ts",
        old_string: "one\ntwo",
        new_string: "1\n2",
      });
      assert.equal(result.ok, true, show(result));
      assert.equal(
        await readFile(path.join(workspace.root, "a.ts"), "utf8"),
        "1\r\n2\r\nthree\r\n",
      );
    });
  });

  it("refuses binary files and missing files", async () => {
    await withTools(
      {
        setup: async (w) => writeFile(path.join(w.root, "blob.bin"), Buffer.from([1, 0, 2, 0, 3])),
      },
      async ({ call }) => {
        const binary = await call("edit_file", {
          path: "blob.bin",
          old_string: "a",
          new_string: "b",
        });
        assert.equal(binary.error?.code, "tool_error");
        assert.match(textOf(binary), /binary file/);
        const missing = await call("edit_file", {
          path: "nope.ts",
          old_string: "a",
          new_string: "b",
        });
        assert.match(textOf(missing), /does not exist; use write_file/);
      },
    );
  });
});
