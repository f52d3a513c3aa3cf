import assert from "node:assert/strict";
import {
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rename,
  rm,
  symlink,
  writeFile,
} from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import {
  makeConfinedFolder,
  openConfined,
  openConfinedFolder,
  PathSwappedError,
} from "../src/files/open-confined.js";
import { createPathGuard } from "../src/files/path-guard.js";

/**
 * The check-then-open race, made deterministic: the path is checked, then a folder on it is
 * swapped for a link to a folder outside, then the open runs with the checked real path.
 */
let base: string;
let workspace: string;
let outside: string;

before(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), "pc-open-confined-"));
  workspace = path.join(base, "workspace");
  outside = path.join(base, "outside");
  await mkdir(path.join(workspace, "sub"), { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(workspace, "sub", "file.txt"), "inside\n");
  await writeFile(path.join(outside, "file.txt"), "OUTSIDE\n");
});
after(() => rm(base, { recursive: true, force: true }));

/** Swap `workspace/sub` for a link to `outside` while `body` runs, then put it back. */
async function swapped<T>(body: () => Promise<T>): Promise<T> {
  const sub = path.join(workspace, "sub");
  await rename(sub, `${sub}.away`);
  await symlink(outside, sub);
  try {
    return await body();
  } finally {
    await rm(sub);
    await rename(`${sub}.away`, sub);
  }
}

describe("opening a checked path through a verified descriptor", () => {
  const guard = () => createPathGuard(workspace);

  it("opens what the check approved", async () => {
    const checked = await guard().check("sub/file.txt");
    assert.ok(checked.ok);
    const handle = await openConfined(guard(), checked.path.real);
    try {
      assert.equal(await handle.readFile("utf8"), "inside\n");
    } finally {
      await handle.close();
    }
  });

  it("refuses a file whose folder was swapped for a link outside after the check", async () => {
    const checked = await guard().check("sub/file.txt");
    assert.ok(checked.ok);
    await swapped(async () => {
      await assert.rejects(openConfined(guard(), checked.path.real, "sub/file.txt"), (error) => {
        assert.ok(error instanceof PathSwappedError);
        assert.match(error.message, /sub\/file\.txt changed while it was opened/);
        return true;
      });
      await assert.rejects(
        openConfinedFolder(guard(), path.dirname(checked.path.real)),
        PathSwappedError,
      );
    });
  });

  it("refuses a link swapped in for the last part of the path", async () => {
    const real = path.join(workspace, "late-link.txt");
    await symlink(path.join(outside, "file.txt"), real);
    try {
      await assert.rejects(openConfined(guard(), real), PathSwappedError);
    } finally {
      await rm(real);
    }
  });

  it("makes missing folders through verified descriptors, and none outside after a swap", async () => {
    const made = await makeConfinedFolder(guard(), path.join(workspace, "sub", "a", "b"));
    await made.close();
    assert.deepEqual(await readdir(path.join(workspace, "sub", "a")), ["b"]);
    await swapped(async () => {
      await assert.rejects(
        makeConfinedFolder(guard(), path.join(workspace, "sub", "c", "d")),
        PathSwappedError,
      );
    });
    assert.deepEqual(await readdir(outside), ["file.txt"], "nothing was made outside");
    assert.equal(await readFile(path.join(outside, "file.txt"), "utf8"), "OUTSIDE\n");
  });

  it("names entries of an opened folder so a later swap cannot redirect them", async () => {
    const folder = await openConfinedFolder(guard(), path.join(workspace, "sub"));
    try {
      await swapped(async () => {
        // The folder was opened before the swap: its entries are still the inside ones.
        assert.equal(await readFile(folder.entry("file.txt"), "utf8"), "inside\n");
        await writeFile(folder.entry("made-after-swap.txt"), "inside too\n");
      });
    } finally {
      await folder.close();
    }
    if (process.platform === "linux") {
      assert.deepEqual(await readdir(outside), ["file.txt"]);
      assert.equal(
        await readFile(path.join(workspace, "sub", "made-after-swap.txt"), "utf8"),
        "inside too\n",
      );
    }
  });
});
