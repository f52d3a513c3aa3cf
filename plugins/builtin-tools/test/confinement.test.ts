import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { createPathGuard } from "@pseudoclaude/core/files";
import { show, textOf, withTools } from "./support/agent.js";

describe("path confinement", () => {
  let outside: string;
  before(async () => {
    outside = await mkdtemp(path.join(os.tmpdir(), "pseudoclaude-outside-"));
    await writeFile(path.join(outside, "secret.txt"), "top secret\n");
  });
  after(() => rm(outside, { recursive: true, force: true }));

  it("refuses .. escapes and absolute outside paths with invalid_arguments naming the path", async () => {
    await withTools({}, async ({ call }) => {
      for (const bad of [
        "../secret.txt",
        "src/../../x",
        path.join(outside, "secret.txt"),
        "/etc/passwd",
      ]) {
        for (const [tool, args] of [
          ["read_file", { path: bad }],
          ["list_dir", { path: bad }],
          ["write_file", { path: bad, content: "x" }],
          ["edit_file", { path: bad, old_string: "a", new_string: "b" }],
          ["glob", { pattern: "*", path: bad }],
          ["grep", { pattern: "secret", path: bad }],
          ["run_command", { command: "true", cwd: bad }],
        ] as const) {
          const result = await call(tool, args);
          assert.equal(result.error?.code, "invalid_arguments", `${tool} ${bad}: ${show(result)}`);
          assert.ok(
            textOf(result).includes(`"${bad}"`),
            `${tool} names the path: ${textOf(result)}`,
          );
        }
      }
    });
  });

  it("refuses a symbolic link that leads outside, for reading, listing and writing", async () => {
    await withTools(
      {
        setup: async (workspace) => {
          await symlink(path.join(outside, "secret.txt"), path.join(workspace.root, "link.txt"));
          await symlink(outside, path.join(workspace.root, "out"));
        },
      },
      async ({ call }) => {
        const read = await call("read_file", { path: "link.txt" });
        assert.equal(read.error?.code, "invalid_arguments", show(read));
        assert.match(textOf(read), /symbolic link/);
        assert.ok(!textOf(read).includes("top secret"));
        const listed = await call("list_dir", { path: "out" });
        assert.equal(listed.error?.code, "invalid_arguments", show(listed));
        const written = await call("write_file", { path: "out/new.txt", content: "x" });
        assert.equal(written.error?.code, "invalid_arguments", show(written));
        assert.equal(existsSync(path.join(outside, "new.txt")), false);
        const overwritten = await call("write_file", { path: "link.txt", content: "gotcha" });
        assert.equal(overwritten.error?.code, "invalid_arguments", show(overwritten));
        assert.equal(await readFile(path.join(outside, "secret.txt"), "utf8"), "top secret\n");
        const grep = await call("grep", { pattern: "secret", path: "out" });
        assert.equal(grep.error?.code, "invalid_arguments", show(grep));
        const cwd = await call("run_command", { command: "pwd", cwd: "out" });
        assert.equal(cwd.error?.code, "invalid_arguments", show(cwd));
      },
    );
  });

  it("refuses writing through a dangling link whose target is outside", async () => {
    await withTools(
      {
        setup: async (workspace) => {
          await symlink(path.join(outside, "planted.txt"), path.join(workspace.root, "dangling"));
        },
      },
      async ({ call }) => {
        const result = await call("write_file", { path: "dangling", content: "x" });
        assert.equal(result.error?.code, "invalid_arguments", show(result));
        assert.equal(existsSync(path.join(outside, "planted.txt")), false);
      },
    );
  });

  it("follows links that stay inside the workspace and writes through them to the real file", async () => {
    await withTools(
      {
        setup: async (workspace) => {
          await workspace.write("real/file.txt", "one\n");
          await symlink("real", path.join(workspace.root, "alias"));
          await symlink("real/file.txt", path.join(workspace.root, "file-link"));
        },
      },
      async ({ call, workspace }) => {
        const read = await call("read_file", { path: "alias/file.txt" });
        assert.equal(read.ok, true, show(read));
        const written = await call("write_file", { path: "file-link", content: "two\n" });
        assert.equal(written.ok, true, show(written));
        assert.equal(await readFile(path.join(workspace.root, "real/file.txt"), "utf8"), "two\n");
        // The link itself is still a link.
        const listed = await call("list_dir", {});
        assert.match(textOf(listed), /file-link -> real\/file\.txt/);
      },
    );
  });

  it("allows the configured extra roots once approved, and only those", async () => {
    const extra = await mkdtemp(path.join(os.tmpdir(), "pseudoclaude-extra-"));
    try {
      await writeFile(path.join(extra, "shared.txt"), "shared\n");
      // Until the user approves the workspace's extra roots, they reach nothing.
      await withTools(
        { project: `builtin_tools:\n  extra_roots: [${JSON.stringify(extra)}]\n` },
        async ({ call, agent }) => {
          const read = await call("read_file", { path: path.join(extra, "shared.txt") });
          assert.equal(read.error?.code, "invalid_arguments", show(read));
          assert.ok(agent.diagnostics().some((diagnostic) => diagnostic.code === "needs_consent"));
        },
      );
      await withTools(
        {
          project: `builtin_tools:\n  extra_roots: [${JSON.stringify(extra)}]\n`,
          agent: { projectApprovals: "all" },
        },
        async ({ call }) => {
          const read = await call("read_file", { path: path.join(extra, "shared.txt") });
          assert.equal(read.ok, true, show(read));
          const written = await call("write_file", {
            path: path.join(extra, "out/new.txt"),
            content: "x",
          });
          assert.equal(written.ok, true, show(written));
          assert.equal(await readFile(path.join(extra, "out/new.txt"), "utf8"), "x");
          const refused = await call("read_file", { path: path.join(outside, "secret.txt") });
          assert.equal(refused.error?.code, "invalid_arguments");
          assert.match(textOf(refused), /extra roots/);
        },
      );
    } finally {
      await rm(extra, { recursive: true, force: true });
    }
  });

  it("resolves new paths through their nearest existing parent", async () => {
    const base = await mkdtemp(path.join(os.tmpdir(), "pseudoclaude-guard-"));
    try {
      await mkdir(path.join(base, "ws", "src"), { recursive: true });
      await symlink(os.tmpdir(), path.join(base, "ws", "tmp"));
      const guard = createPathGuard(path.join(base, "ws"));
      const inside = await guard.check("src/a/b/c.txt");
      assert.deepEqual(inside, {
        ok: true,
        path: {
          real: path.join(base, "ws", "src/a/b/c.txt"),
          exists: false,
          display: "src/a/b/c.txt",
        },
      });
      const viaLink = await guard.check("tmp/not-yet/x.txt");
      assert.equal(viaLink.ok, false);
      assert.equal((await guard.check(".")).ok, true);
      assert.equal((await guard.check("a\0b")).ok, false);
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});
