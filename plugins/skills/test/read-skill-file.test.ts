import assert from "node:assert/strict";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import type { ToolResult } from "@pseudoclaude/core";
import { copySkills } from "./support/fixtures.js";
import { skillAgent, withWorkspace } from "./support/skill-agent.js";

const textOf = (result: ToolResult) =>
  result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
const messageOf = (result: ToolResult) => (result.ok ? "" : result.error.message);

describe("read_skill_file", () => {
  it("reads a bundled file of a loaded skill, and nothing of a skill that is not loaded", async () => {
    await withWorkspace(async (workspace) => {
      await copySkills(path.join(workspace.root, ".claude/skills"), ["pdf-processing"]);
      const { agent, manager } = await skillAgent(workspace);
      try {
        const early = await agent.callTool("read_skill_file", {
          skill: "pdf-processing",
          path: "references/REFERENCE.md",
        });
        assert.match(
          messageOf(early.result),
          /"pdf-processing" is not loaded \(loaded: none\); call load_skill first/,
        );
        await manager.load("pdf-processing");
        const read = await agent.callTool("read_skill_file", {
          skill: "pdf-processing",
          path: "references/REFERENCE.md",
        });
        assert.equal(read.decision.verdict, "allow", "read-only");
        assert.equal(textOf(read.result), "# Reference\n\nFields: title, author, pages.\n");
        const unknown = await agent.callTool("read_skill_file", { skill: "other", path: "x" });
        assert.match(messageOf(unknown.result), /"other" is not loaded/);
      } finally {
        await agent.close();
      }
    });
  });

  it("refuses .. and absolute paths that leave the skill's folder", async () => {
    await withWorkspace(async (workspace) => {
      const root = path.join(workspace.root, ".claude/skills");
      await copySkills(root, ["pdf-processing", "commit-helper"]);
      await writeFile(path.join(workspace.root, "secret.txt"), "workspace secret");
      const { agent, manager } = await skillAgent(workspace);
      try {
        await manager.load("pdf-processing");
        for (const attempt of [
          "../commit-helper/SKILL.md",
          "../../../secret.txt",
          path.join(workspace.root, "secret.txt"),
          "/etc/passwd",
        ]) {
          const outcome = await agent.callTool("read_skill_file", {
            skill: "pdf-processing",
            path: attempt,
          });
          assert.equal(outcome.result.ok, false, attempt);
          assert.match(
            messageOf(outcome.result),
            /leads outside the folder of skill "pdf-processing"/,
            attempt,
          );
        }
      } finally {
        await agent.close();
      }
    });
  });

  it("refuses a symbolic link that leads out of the folder and follows one that stays inside", async () => {
    await withWorkspace(async (workspace) => {
      const root = path.join(workspace.root, ".claude/skills");
      await copySkills(root, ["pdf-processing"]);
      const skillDir = path.join(root, "pdf-processing");
      await writeFile(path.join(workspace.root, "secret.txt"), "workspace secret");
      await symlink(
        path.join(workspace.root, "secret.txt"),
        path.join(skillDir, "references", "leak.md"),
      );
      await symlink(path.join(workspace.root), path.join(skillDir, "outside"));
      await symlink("REFERENCE.md", path.join(skillDir, "references", "alias.md"));
      const { agent, manager } = await skillAgent(workspace);
      try {
        const loaded = await manager.load("pdf-processing");
        assert.deepEqual(
          loaded.files.map((file) => file.path),
          [
            "references/REFERENCE.md",
            "references/alias.md",
            "scripts/extract.sh",
            "scripts/helpers.py",
          ],
          "links out of the folder are not listed",
        );
        const leak = await agent.callTool("read_skill_file", {
          skill: "pdf-processing",
          path: "references/leak.md",
        });
        assert.match(messageOf(leak.result), /through a symbolic link to .*secret\.txt/);
        const dirLeak = await agent.callTool("read_skill_file", {
          skill: "pdf-processing",
          path: "outside/secret.txt",
        });
        assert.equal(dirLeak.result.ok, false);
        const alias = await agent.callTool("read_skill_file", {
          skill: "pdf-processing",
          path: "references/alias.md",
        });
        assert.match(textOf(alias.result), /Fields: title/);
      } finally {
        await agent.close();
      }
    });
  });

  it("cuts a large file with a note, and refuses binary files and folders", async () => {
    await withWorkspace(async (workspace) => {
      const root = path.join(workspace.root, ".claude/skills");
      await copySkills(root, ["pdf-processing"]);
      const assets = path.join(root, "pdf-processing", "assets");
      await mkdir(assets);
      await writeFile(path.join(assets, "big.txt"), "x".repeat(5_000));
      await writeFile(
        path.join(assets, "logo.png"),
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13]),
      );
      const { agent, manager } = await skillAgent(workspace, { readMaxBytes: 2_048 });
      try {
        await manager.load("pdf-processing");
        const big = await agent.callTool("read_skill_file", {
          skill: "pdf-processing",
          path: "assets/big.txt",
        });
        assert.ok(big.result.ok);
        const text = textOf(big.result);
        assert.ok(text.startsWith("x".repeat(2_048)));
        assert.match(
          text,
          /\[\.\.\. 2952 more bytes not shown: the file has 5000 bytes and read_skill_file returns at most 2048\]$/,
        );
        assert.equal((big.result.structured as { truncated: boolean }).truncated, true);
        const binary = await agent.callTool("read_skill_file", {
          skill: "pdf-processing",
          path: "assets/logo.png",
        });
        assert.match(messageOf(binary.result), /assets\/logo\.png is a binary file \(8 bytes\)/);
        const folder = await agent.callTool("read_skill_file", {
          skill: "pdf-processing",
          path: "assets",
        });
        assert.match(messageOf(folder.result), /is a folder/);
        const missing = await agent.callTool("read_skill_file", {
          skill: "pdf-processing",
          path: "nope.md",
        });
        assert.match(
          messageOf(missing.result),
          /nope\.md does not exist in skill "pdf-processing"/,
        );
      } finally {
        await agent.close();
      }
    });
  });
});
