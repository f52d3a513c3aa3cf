// Claude Code's hook answers as its hooks reference defines them: exit codes, PreToolUse's
// permissionDecision (and the older decision/approve), PermissionRequest's decision.behavior,
// a top-level block, continue: false, additionalContext; and its settings files in order.
import assert from "node:assert/strict";
import path from "node:path";
import { describe, it } from "node:test";
import {
  additionalContextOf,
  blockOf,
  CLAUDE_CODE_HOOK_EVENTS,
  claudeCodeExit,
  claudeSettingsFiles,
  isClaudeCodeHookEvent,
  permissionRequestAnswer,
  preToolUseAnswer,
  systemMessageOf,
} from "../src/index.js";

describe("Claude Code's hook answers", () => {
  it("reads exit codes: 0 success, 2 a block, anything else a non-blocking error", () => {
    assert.deepEqual([0, 1, 2, 3, 127].map(claudeCodeExit), [
      "success",
      "non_blocking_error",
      "block",
      "non_blocking_error",
      "non_blocking_error",
    ]);
  });

  it("reads PreToolUse's permissionDecision, the older decision, and continue: false", () => {
    const specific = (fields: Record<string, unknown>) => ({ hookSpecificOutput: fields });
    assert.deepEqual(
      preToolUseAnswer(specific({ permissionDecision: "deny", permissionDecisionReason: "no" })),
      { kind: "deny", reason: "no" },
    );
    assert.deepEqual(
      preToolUseAnswer(specific({ permissionDecision: "allow", updatedInput: { a: 1 } })),
      { kind: "allow", input: { a: 1 } },
    );
    assert.deepEqual(preToolUseAnswer({ decision: "block", reason: "old" }), {
      kind: "deny",
      reason: "old",
    });
    assert.deepEqual(preToolUseAnswer({ decision: "approve" }), { kind: "allow" });
    assert.deepEqual(preToolUseAnswer({ continue: false, stopReason: "halt" }), {
      kind: "deny",
      reason: "halt",
    });
    assert.deepEqual(preToolUseAnswer(undefined), { kind: "ask" });
  });

  it("reads PermissionRequest's decision.behavior", () => {
    const decision = (value: Record<string, unknown>) => ({
      hookSpecificOutput: { hookEventName: "PermissionRequest", decision: value },
    });
    assert.deepEqual(permissionRequestAnswer(decision({ behavior: "allow" })), { kind: "allow" });
    assert.deepEqual(permissionRequestAnswer(decision({ behavior: "deny", message: "m" })), {
      kind: "deny",
      message: "m",
    });
    assert.deepEqual(permissionRequestAnswer({}), { kind: "ask" });
  });

  it("reads a block, additional context and a system message", () => {
    assert.equal(blockOf({ decision: "block", reason: "r" }), "r");
    assert.equal(blockOf({ decision: "approve" }), undefined);
    assert.equal(additionalContextOf({ hookSpecificOutput: { additionalContext: "c" } }), "c");
    assert.equal(systemMessageOf({ systemMessage: "s" }), "s");
  });

  it("knows Claude Code's events by their exact names", () => {
    assert.ok(CLAUDE_CODE_HOOK_EVENTS.length >= 28);
    assert.equal(isClaudeCodeHookEvent("SessionStart"), true);
    assert.equal(isClaudeCodeHookEvent("sessionstart"), false);
  });
});

describe("Claude Code's settings files", () => {
  it("lists user, project and local in Claude Code's precedence; only the user's is trusted", () => {
    const files = claudeSettingsFiles("/w", "/h");
    assert.deepEqual(
      files.map((file) => [file.scope, file.path, file.trusted]),
      [
        ["user", path.join("/h", ".claude", "settings.json"), true],
        ["project", path.join("/w", ".claude", "settings.json"), false],
        ["local", path.join("/w", ".claude", "settings.local.json"), false],
      ],
    );
  });
});
