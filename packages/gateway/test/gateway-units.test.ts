import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import type { ToolDefinition } from "@pseudoclaude/core";
import { VALID_TOOL_NAME } from "@pseudoclaude/core/plugin";
import {
  AuditLog,
  argumentsHash,
  ExportedNames,
  exposureTest,
  honestAnnotations,
} from "../src/index.js";

const tool = (name: string, source = "builtin-tools", extra: Partial<ToolDefinition> = {}) =>
  ({
    name,
    source,
    description: "",
    inputSchema: {},
    safety: "side_effect",
    ...extra,
  }) as ToolDefinition;

describe("ExportedNames", () => {
  it("renames by the first matching rule and keeps other names", () => {
    const names = new ExportedNames([
      { from: "mcp__github__*", to: "gh_*" },
      { from: "mcp__*", to: "other_*" },
    ]).assign(["mcp__github__create_issue", "mcp__docs__search", "read_file"]);
    assert.deepEqual([...names.values()], ["gh_create_issue", "other_docs__search", "read_file"]);
  });

  it("keeps two tools that would meet on one name apart, the same way every time", () => {
    const rules = [{ from: "mcp__*__search", to: "search" }];
    const first = new ExportedNames(rules).assign(["mcp__a__search", "mcp__b__search"]);
    const again = new ExportedNames(rules).assign(["mcp__a__search", "mcp__b__search"]);
    assert.equal(first.get("mcp__a__search"), "search");
    assert.match(first.get("mcp__b__search") ?? "", /^search_[0-9a-f]{8}$/);
    assert.deepEqual([...first], [...again]);
  });

  it("holds renamed names to the kernel's name rule", () => {
    const names = new ExportedNames([{ from: "x*", to: `${"long".repeat(20)}*` }]).assign(["x1"]);
    const exported = names.get("x1") ?? "";
    assert.match(exported, VALID_TOOL_NAME);
    assert.ok(exported.length <= 64);
  });
});

describe("exposureTest", () => {
  it("needs every allow list to name a tool: a second list narrows the first", () => {
    const test = exposureTest({ allow: [["mcp__*", "read_file"], ["mcp:github"]], deny: [] });
    assert.equal(test(tool("mcp__github__x", "mcp:github")), true);
    assert.equal(test(tool("mcp__docs__x", "mcp:docs")), false);
    assert.equal(test(tool("read_file")), false);
  });

  it("hides a tool any deny pattern names, by name, alias or source", () => {
    const test = exposureTest({ allow: [], deny: ["Bash", "mcp:secrets"] });
    assert.equal(test(tool("run_command", "builtin-tools", { aliases: ["Bash"] })), false);
    assert.equal(test(tool("mcp__secrets__get", "mcp:secrets")), false);
    assert.equal(test(tool("read_file")), true);
  });
});

describe("honestAnnotations", () => {
  it("says read-only only for what the registry knows is, whatever the author claimed", () => {
    assert.deepEqual(
      honestAnnotations(tool("x", "mcp:a", { annotations: { readOnlyHint: true } })),
      { readOnlyHint: false, destructiveHint: true },
    );
    assert.deepEqual(
      honestAnnotations(tool("read_file", "builtin-tools", { safety: "read_only", title: "Read" })),
      {
        readOnlyHint: true,
        title: "Read",
      },
    );
  });
});

describe("argumentsHash", () => {
  it("is the same for the same arguments in any key order, and differs otherwise", () => {
    assert.equal(
      argumentsHash({ a: 1, b: { c: [1, 2] } }),
      argumentsHash({ b: { c: [1, 2] }, a: 1 }),
    );
    assert.notEqual(argumentsHash({ a: 1 }), argumentsHash({ a: 2 }));
    assert.notEqual(argumentsHash({ a: [1, 2] }), argumentsHash({ a: [2, 1] }));
  });
});

describe("AuditLog", () => {
  it("appends records in order, redacted, in a file only its owner reads", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "pc-audit-"));
    try {
      const file = path.join(dir, "nested", "audit.jsonl");
      const log = new AuditLog(file);
      for (let index = 0; index < 20; index++)
        log.record({
          time: new Date().toISOString(),
          kind: "call",
          transport: "stdio",
          era: "2025-11-25",
          who: {},
          what: { name: `t${index}`, arguments: { password: "hunter2-hunter2", n: index } },
          decision: "allow",
          outcome: "ok",
          durationMs: 1,
        });
      await log.flush();
      const lines = (await readFile(file, "utf8"))
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line));
      assert.deepEqual(
        lines.map((line) => line.what.name),
        Array.from({ length: 20 }, (_, index) => `t${index}`),
      );
      assert.ok(lines.every((line) => line.what.arguments.password === "***"));
      assert.equal((await stat(file)).mode & 0o777, 0o600);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("reports a write it cannot make once, and never throws", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "pc-audit-"));
    // A file where the log's folder would be: every write fails (ENOTDIR).
    const blocker = path.join(dir, "blocker");
    await writeFile(blocker, "");
    const errors: unknown[] = [];
    const log = new AuditLog(path.join(blocker, "audit.jsonl"), (error) => errors.push(error));
    for (let index = 0; index < 3; index++)
      log.record({
        time: "",
        kind: "call",
        transport: "stdio",
        era: "2025-11-25",
        who: {},
        what: { name: "x" },
        decision: "allow",
        outcome: "ok",
        durationMs: 0,
      });
    await log.flush();
    assert.equal(errors.length, 1);
    await rm(dir, { recursive: true, force: true });
  });
});
