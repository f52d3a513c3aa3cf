import assert from "node:assert/strict";
import { mkdtemp, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import type { Approver, ToolDefinition } from "@pseudoclaude/core";
import { VALID_TOOL_NAME } from "@pseudoclaude/core/plugin";
import {
  AuditLog,
  argumentsHash,
  ClientApprovals,
  ExportedNames,
  exposureTest,
  GatewayTasks,
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

  it("keeps its file open, and opens a new one at the path once the old was moved away", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "pc-audit-"));
    const file = path.join(dir, "audit.jsonl");
    const entry = (name: string) => ({
      time: "",
      kind: "call" as const,
      transport: "stdio" as const,
      era: "2025-11-25" as const,
      who: {},
      what: { name },
      decision: "allow" as const,
      outcome: "ok" as const,
      durationMs: 0,
    });
    try {
      const log = new AuditLog(file);
      log.record(entry("before"));
      await log.flush();
      await rename(file, `${file}.1`);
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      log.record(entry("after"));
      await log.close();
      const names = async (at: string) =>
        (await readFile(at, "utf8"))
          .trim()
          .split("\n")
          .map((line) => JSON.parse(line).what.name);
      assert.deepEqual(await names(`${file}.1`), ["before"]);
      assert.deepEqual(await names(file), ["after"]);
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

describe("GatewayTasks", () => {
  const done = (text: string) => ({ content: [{ type: "text" as const, text }] });
  const settled = async (tasks: GatewayTasks, id: string, owner?: string) => {
    for (let i = 0; i < 100 && tasks.get(id, owner).status === "working"; i++)
      await new Promise((resolve) => setTimeout(resolve, 5));
    return tasks.get(id, owner);
  };

  it("stores a task before it answers, then inlines the result or the error", async () => {
    const tasks = new GatewayTasks({ pollIntervalMs: 250 });
    const ok = tasks.start(undefined, async () => done("fine"));
    assert.equal(ok.status, "working");
    assert.equal(ok.pollIntervalMs, 250);
    assert.equal(tasks.get(ok.taskId, undefined).taskId, ok.taskId);
    assert.deepEqual((await settled(tasks, ok.taskId)).result, done("fine"));
    const broken = tasks.start(undefined, async () => {
      throw new Error("upstream went away");
    });
    const failed = await settled(tasks, broken.taskId);
    assert.equal(failed.status, "failed");
    assert.deepEqual(failed.error, { code: -32603, message: "upstream went away" });
    assert.equal(failed.result, undefined);
  });

  it("another principal's task is unknown to it, exactly as a made-up id is", () => {
    const tasks = new GatewayTasks();
    const mine = tasks.start("alice", () => new Promise(() => {}));
    assert.throws(() => tasks.get(mine.taskId, "bob"), /Unknown task/);
    assert.throws(() => tasks.cancel(mine.taskId, undefined), /Unknown task/);
    assert.throws(() => tasks.get("no-such-task", "alice"), /Unknown task/);
    assert.equal(tasks.get(mine.taskId, "alice").status, "working");
    tasks.close();
  });

  it("cancel aborts the run; a result after it, and a second cancel, change nothing", async () => {
    const tasks = new GatewayTasks();
    let signal: AbortSignal | undefined;
    let finish: (() => void) | undefined;
    const task = tasks.start(undefined, (s) => {
      signal = s;
      return new Promise((resolve) => {
        finish = () => resolve(done("late"));
      });
    });
    tasks.cancel(task.taskId, undefined);
    assert.equal(signal?.aborted, true);
    finish?.();
    await new Promise((resolve) => setTimeout(resolve, 10));
    tasks.cancel(task.taskId, undefined);
    const seen = tasks.get(task.taskId, undefined);
    assert.equal(seen.status, "cancelled");
    assert.equal(seen.result, undefined);
  });

  it("forgets a task after its ttl, and makes room by dropping finished ones", async () => {
    const short = new GatewayTasks({ ttlMs: 20 });
    const task = short.start(undefined, async () => done("x"));
    await new Promise((resolve) => setTimeout(resolve, 40));
    assert.throws(() => short.get(task.taskId, undefined), /Unknown task/);

    const small = new GatewayTasks({ maxTasks: 2 });
    const first = small.start(undefined, async () => done("1"));
    await settled(small, first.taskId);
    small.start(undefined, () => new Promise(() => {}));
    small.start(undefined, () => new Promise(() => {}));
    assert.throws(
      () => small.get(first.taskId, undefined),
      /Unknown task/,
      "the finished one went",
    );
    assert.throws(() => small.start(undefined, async () => done("4")), /running 2 tasks already/);
    small.close();
  });
});

describe("ClientApprovals.with", () => {
  const request = {} as Parameters<Approver>[0];

  it("hands the call an approver with the client's answer; the agent's own denies", async () => {
    const approvals = new ClientApprovals();
    const allowed = await approvals.with(
      { kind: "answered", verdict: "allow", reason: "the client's person said yes" },
      async (approver) => approver(request),
    );
    assert.deepEqual(allowed, { verdict: "allow", reason: "the client's person said yes" });
    const unasked = (await approvals.with({ kind: "none" }, async (approver) =>
      approver(request),
    )) as { verdict: string; reason: string };
    assert.equal(unasked.verdict, "deny");
    assert.match(unasked.reason, /a hook changed it after the gateway checked/);
    const own = (await approvals.approver(request)) as { verdict: string; reason: string };
    assert.deepEqual(own, {
      verdict: "deny",
      reason: "Only a gateway client can approve calls here.",
    });
  });
});

describe("ClientApprovals.elicitor", () => {
  const question = { source: "mcp:github", message: "Which repo?", requestedSchema: {} };
  const none = { kind: "none" } as const;

  it("puts a server's question to the one client whose call to that server is running", async () => {
    const approvals = new ClientApprovals();
    const asked: string[] = [];
    const client = {};
    let release: () => void = () => {};
    const running = approvals.with(
      none,
      () => new Promise<void>((resolve) => (release = resolve)),
      {
        source: "mcp:github",
        client,
        ask: async (request) => {
          asked.push(request.message);
          return { action: "accept", content: { repo: "a/b" } };
        },
      },
    );
    assert.deepEqual(await approvals.elicitor(question), {
      action: "accept",
      content: { repo: "a/b" },
    });
    assert.deepEqual(await approvals.elicitor({ ...question, source: "mcp:other" }), {
      action: "decline",
    });
    release();
    await running;
    assert.deepEqual(asked, ["Which repo?"]);
    assert.deepEqual(await approvals.elicitor(question), { action: "decline" }, "call over");
  });

  it("declines when calls of two clients to that server run: it cannot tell whose it is", async () => {
    const approvals = new ClientApprovals();
    const asked: string[] = [];
    const releases: Array<() => void> = [];
    const calls = [{}, {}].map((client) =>
      approvals.with(none, () => new Promise<void>((resolve) => releases.push(resolve)), {
        source: "mcp:github",
        client,
        ask: async () => {
          asked.push("asked");
          return { action: "accept" };
        },
      }),
    );
    assert.deepEqual(await approvals.elicitor(question), { action: "decline" });
    for (const release of releases) release();
    await Promise.all(calls);
    assert.equal(asked.length, 0);
  });
});
