import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { withTools } from "./support/agent.js";

/**
 * The check-then-open race, raced for real: a separate process swaps a folder of the
 * workspace for a link to a folder outside and back, as fast as it can, while the built-in
 * tools read, write, edit, list and search through it. Whatever moment each call lands on, no
 * call shows outside content or names, and the outside folder is never changed.
 */
const CALLS = Number(process.env.RACE_CALLS ?? 900);
const SENTINEL = "OUTSIDE-SENTINEL";
const SWAPPER = fileURLToPath(new URL("./fixtures/swap-folder.js", import.meta.url));

let outside: string;
let snapshot: string[];

async function outsideState(): Promise<string[]> {
  const names = (await readdir(outside, { recursive: true })).sort();
  return Promise.all(
    names.map(async (name) => {
      const text = await readFile(path.join(outside, name), "utf8").catch(() => "<dir>");
      return `${name}=${text}`;
    }),
  );
}

before(async () => {
  outside = await mkdtemp(path.join(os.tmpdir(), "pc-race-outside-"));
  await writeFile(path.join(outside, "inner.txt"), `${SENTINEL} inner\n`);
  await writeFile(path.join(outside, "outside-only.txt"), `${SENTINEL} only\n`);
  await mkdir(path.join(outside, "deep"));
  await writeFile(path.join(outside, "deep", "inner.txt"), `${SENTINEL} deep\n`);
  snapshot = await outsideState();
});
after(() => rm(outside, { recursive: true, force: true }));

async function startSwapper(folder: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [SWAPPER, folder, outside], {
    cwd: path.dirname(folder),
    stdio: ["ignore", "pipe", "inherit"],
  });
  const [chunk] = (await once(child.stdout!, "data")) as [Buffer];
  assert.match(chunk.toString(), /swapping/);
  return child;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGKILL");
  await exited;
}

const CALL_KINDS = [
  ["read_file", { path: "sub/inner.txt" }],
  ["read_file", { path: "sub/deep/inner.txt" }],
  ["write_file", { path: "sub/inner.txt", content: "written inside\n" }],
  ["write_file", { path: "sub/new/made.txt", content: "made inside\n" }],
  ["edit_file", { path: "sub/inner.txt", old_string: "inside", new_string: "inside" }],
  ["list_dir", { path: "sub" }],
  ["grep", { pattern: "SENTINEL|inside", path: "." }],
  ["grep", { pattern: "SENTINEL|inside", path: "sub/deep/inner.txt" }],
  ["glob", { pattern: "**/*", path: "." }],
] as const;

describe("the check-then-open race against a folder swapped for a link", () => {
  it("never reads, lists or writes outside, whichever moment each call lands on", {
    timeout: 300_000,
  }, async () => {
    await withTools(
      {
        setup: async (workspace) => {
          await mkdir(path.join(workspace.root, "sub", "deep"), { recursive: true });
          await writeFile(path.join(workspace.root, "sub", "inner.txt"), "inside inner\n");
          await writeFile(path.join(workspace.root, "sub", "deep", "inner.txt"), "inside deep\n");
        },
      },
      async ({ call, workspace }) => {
        const swapper = await startSwapper(path.join(workspace.root, "sub"));
        const outcomes = new Map<string, number>();
        try {
          for (let i = 0; i < CALLS; i += CALL_KINDS.length) {
            await Promise.all(
              CALL_KINDS.map(async ([tool, args]) => {
                const result = await call(tool, args);
                const shown = JSON.stringify(result);
                assert.ok(!shown.includes(SENTINEL), `${tool} showed outside content: ${shown}`);
                assert.ok(!shown.includes("outside-only"), `${tool} listed outside: ${shown}`);
                const key = `${tool} ${result.ok ? "ok" : result.error?.code}`;
                outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
              }),
            );
          }
        } finally {
          await stop(swapper);
        }
        assert.deepEqual(await outsideState(), snapshot, "the outside folder changed");
        // The race was run: calls met the folder both ways (some worked, some were refused).
        const worked = [...outcomes].filter(([key]) => key.endsWith(" ok")).length;
        const refused = [...outcomes].filter(([key]) => !key.endsWith(" ok")).length;
        assert.ok(worked > 0 && refused > 0, JSON.stringify([...outcomes]));
      },
    );
  });
});
