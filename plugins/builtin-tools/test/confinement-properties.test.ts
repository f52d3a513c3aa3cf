import assert from "node:assert/strict";
import { link, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import { textOf, withTools } from "./support/agent.js";

/**
 * Property: whatever path a model writes (relative or absolute, with `.`, `..`, doubled
 * slashes, through links to folders and files outside, through a hard link to a file
 * outside), the built-in tools never read what is outside the workspace and never change
 * anything there. An outside folder holds sentinel files; after each drawn call they must be
 * exactly as they were, with nothing added.
 */
const RUNS = Number(process.env.PROPERTY_RUNS ?? 60);
const SENTINEL = "OUTSIDE-SENTINEL-CONTENT";

let outside: string;
let snapshot: Map<string, string>;

async function contents(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out.set(path.relative(dir, file), await readFile(file, "utf8"));
  }
  return out;
}

before(async () => {
  outside = await mkdtemp(path.join(os.tmpdir(), "pc-confine-outside-"));
  await mkdir(path.join(outside, "dir"));
  await writeFile(path.join(outside, "secret.txt"), `${SENTINEL} secret\n`);
  await writeFile(path.join(outside, "dir", "inner.txt"), `${SENTINEL} inner\n`);
  await writeFile(path.join(outside, "linked.txt"), `${SENTINEL} hard-linked\n`);
  snapshot = await contents(outside);
});
after(() => rm(outside, { recursive: true, force: true }));

const segment = fc.constantFrom(
  ".",
  "..",
  "src",
  "src/deep",
  "out_dir",
  "out_file.txt",
  "hard.txt",
  "new.txt",
  "secret.txt",
  "dir",
  "inner.txt",
  "",
);

const target = fc.constantFrom(
  "secret.txt",
  "dir/inner.txt",
  "out_file.txt",
  "out_dir/inner.txt",
  "out_dir",
  "hard.txt",
  "src/a.txt",
  "new.txt",
);

describe("property: the built-in tools stay inside the workspace", () => {
  it("never read outside content or change anything outside, whatever the path", {
    timeout: 300_000,
  }, async () => {
    await withTools(
      {
        setup: async (workspace) => {
          await mkdir(path.join(workspace.root, "src", "deep"), { recursive: true });
          await writeFile(path.join(workspace.root, "src", "a.txt"), "inside a\n");
          await symlink(path.join(outside, "dir"), path.join(workspace.root, "out_dir"));
          await symlink(
            path.join(outside, "secret.txt"),
            path.join(workspace.root, "out_file.txt"),
          );
          await link(path.join(outside, "linked.txt"), path.join(workspace.root, "hard.txt"));
        },
      },
      async ({ call, workspace }) => {
        await fc.assert(
          fc.asyncProperty(
            fc.oneof(
              fc.array(segment, { minLength: 1, maxLength: 5 }),
              // Noise, then a name that leads somewhere, so many draws reach a real file.
              fc
                .tuple(fc.array(segment, { maxLength: 3 }), target)
                .map(([noise, end]) => [...noise, ...end.split("/")]),
            ),
            fc.constantFrom("relative", "absolute-inside", "absolute-outside"),
            fc.constantFrom("read_file", "write_file", "edit_file", "list_dir", "grep", "glob"),
            async (segments, anchor, tool) => {
              const relative = segments.join("/") || ".";
              const target =
                anchor === "relative"
                  ? relative
                  : path.join(anchor === "absolute-inside" ? workspace.root : outside, relative);
              const args: Record<string, unknown> =
                tool === "write_file"
                  ? { path: target, content: "written by the property test\n" }
                  : tool === "edit_file"
                    ? { path: target, old_string: SENTINEL, new_string: "EDITED" }
                    : tool === "grep"
                      ? { pattern: "SENTINEL", path: target }
                      : tool === "glob"
                        ? { pattern: "**/*", path: target }
                        : { path: target };
              const result = await call(tool, args);
              const shown = JSON.stringify(result);
              // A hard link is a file of the workspace: reading it (read_file, grep, or an
              // edit's report) shows that file, whatever spelling reached it ("hard.txt/.",
              // a grep of the whole tree). Only the two files that exist solely outside
              // must never show. Changing the link must not change the outside name's content
              // (writes replace, never write into): the snapshot below checks that.
              for (const onlyOutside of [`${SENTINEL} secret`, `${SENTINEL} inner`])
                assert.ok(
                  !shown.includes(onlyOutside),
                  `${tool} ${target} showed outside content: ${shown.slice(0, 500)}`,
                );
              assert.deepEqual(
                await contents(outside),
                snapshot,
                `${tool} ${target} changed the outside folder`,
              );
              if (result.ok && (tool === "write_file" || tool === "edit_file"))
                assert.ok(!textOf(result).includes(outside), `${tool} reported a path outside`);
            },
          ),
          { numRuns: RUNS },
        );
      },
    );
  });
});
