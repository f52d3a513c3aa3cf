import assert from "node:assert/strict";
import { link, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import { skillAgent, withWorkspace, writeSkill } from "./support/skill-agent.js";

/**
 * Property: whatever path a model gives `read_skill_file` (relative or absolute, `.`, `..`,
 * empty segments, through links to a folder and a file outside, to a file of the workspace
 * outside the skill, through a hard link), it never shows a file that is not in the skill's
 * folder. A hard link is a file of the folder under a second name, so it may show.
 */
const RUNS = Number(process.env.PROPERTY_RUNS ?? 60);
const SENTINEL = "OUTSIDE-SKILL-SENTINEL";

let outside: string;
before(async () => {
  outside = await mkdtemp(path.join(os.tmpdir(), "pc-skill-outside-"));
  await mkdir(path.join(outside, "dir"));
  await writeFile(path.join(outside, "secret.txt"), `${SENTINEL} secret\n`);
  await writeFile(path.join(outside, "dir", "inner.txt"), `${SENTINEL} inner\n`);
  await writeFile(path.join(outside, "linked.txt"), `${SENTINEL} hard-linked\n`);
});
after(() => rm(outside, { recursive: true, force: true }));

const segment = fc.constantFrom(
  ".",
  "..",
  "references",
  "REFERENCE.md",
  "SKILL.md",
  "out_dir",
  "out_file.txt",
  "ws_file.txt",
  "hard.txt",
  "secret.txt",
  "inner.txt",
  "dir",
  "other-skill",
  "",
);

const target = fc.constantFrom(
  "secret.txt",
  "dir/inner.txt",
  "out_file.txt",
  "out_dir/inner.txt",
  "ws_file.txt",
  "ws_secret.txt",
  "hard.txt",
  "SKILL.md",
  "references/REFERENCE.md",
  "other-skill/SKILL.md",
  "../other-skill/SKILL.md",
  "../../../ws_secret.txt",
);

describe("property: read_skill_file stays inside the skill's folder", () => {
  it("never shows a file outside the skill's folder, whatever the path", {
    timeout: 300_000,
  }, async () => {
    await withWorkspace(async (workspace) => {
      const skills = path.join(workspace.root, ".claude", "skills");
      const folder = await writeSkill(skills, "probe", { name: "probe", description: "Probe." });
      await writeSkill(skills, "other-skill", {
        name: "other-skill",
        description: `Other. ${SENTINEL} other skill`,
      });
      await mkdir(path.join(folder, "references"));
      await writeFile(path.join(folder, "references", "REFERENCE.md"), "inside reference\n");
      await writeFile(path.join(workspace.root, "ws_secret.txt"), `${SENTINEL} workspace\n`);
      await symlink(path.join(outside, "dir"), path.join(folder, "out_dir"));
      await symlink(path.join(outside, "secret.txt"), path.join(folder, "out_file.txt"));
      await symlink(path.join(workspace.root, "ws_secret.txt"), path.join(folder, "ws_file.txt"));
      await link(path.join(outside, "linked.txt"), path.join(folder, "hard.txt"));
      const { agent, manager } = await skillAgent(workspace);
      try {
        await manager.load("probe");
        await fc.assert(
          fc.asyncProperty(
            // Noise first, then a name that leads somewhere, so most draws reach a real file.
            fc
              .tuple(fc.array(segment, { maxLength: 4 }), target)
              .map(([noise, end]) => [...noise, ...end.split("/")]),
            fc.constantFrom(
              "relative",
              "absolute-inside",
              "absolute-outside",
              "absolute-workspace",
            ),
            async (segments, anchor) => {
              const relative = segments.join("/") || ".";
              const base =
                anchor === "absolute-inside"
                  ? folder
                  : anchor === "absolute-outside"
                    ? outside
                    : anchor === "absolute-workspace"
                      ? workspace.root
                      : undefined;
              const target = base ? path.join(base, relative) : relative;
              const { result } = await agent.callTool("read_skill_file", {
                skill: "probe",
                path: target,
              });
              const shown = JSON.stringify(result);
              for (const onlyOutside of ["secret", "inner", "workspace", "other skill"])
                assert.ok(
                  !shown.includes(`${SENTINEL} ${onlyOutside}`),
                  `${target} showed a file outside the skill: ${shown.slice(0, 400)}`,
                );
            },
          ),
          { numRuns: RUNS },
        );
      } finally {
        await agent.close();
      }
    });
  });
});
