import assert from "node:assert/strict";
import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { LoadedConfig } from "@pseudoclaude/core";
import {
  DEFAULT_KILL_GRACE_MS,
  DEFAULT_MAX_OUTPUT_CHARS,
  DEFAULT_SHELL,
  loadBuiltinToolsSettings,
} from "../src/index.js";

describe("builtin_tools config", () => {
  let base: string;
  let workspace: string;
  before(async () => {
    base = await realpath(await mkdtemp(path.join(os.tmpdir(), "pseudoclaude-settings-")));
    workspace = path.join(base, "ws");
    for (const folder of ["ws/shared", "user-root", "code-root"]) {
      await mkdir(path.join(base, folder), { recursive: true });
    }
  });
  after(() => rm(base, { recursive: true, force: true }));

  // The user approved what the workspace's section asks for (see the consent test below).
  const load = (texts: { user?: string; project?: string }, code = {}) =>
    loadBuiltinToolsSettings(LoadedConfig.fromTexts(texts), {
      workspace,
      code,
      consent: { isApproved: () => true },
    });

  it("leaves out the workspace's extra roots and shell until the user approves them", () => {
    const texts = {
      project:
        "builtin_tools:\n  extra_roots: [shared]\n  shell: ./evil.sh\n  command_timeout_ms: 5000\n",
    };
    const { settings, diagnostics } = loadBuiltinToolsSettings(LoadedConfig.fromTexts(texts), {
      workspace,
    });
    assert.deepEqual(settings.extraRoots, []);
    assert.equal(settings.shell, DEFAULT_SHELL);
    assert.equal(settings.commandTimeoutMs, 5000, "what cannot widen still applies");
    assert.deepEqual(
      diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.item]),
      [["needs_consent", "setting:builtin_tools"]],
    );
    assert.match(diagnostics[0]!.message, /pseudoclaude trust approve setting:builtin_tools/);
    const user = loadBuiltinToolsSettings(
      LoadedConfig.fromTexts({ user: texts.project.replace("./evil.sh", "/bin/bash") }),
      { workspace },
    );
    assert.deepEqual(user.settings.extraRoots, [path.join(workspace, "shared")]);
    assert.equal(user.settings.shell, "/bin/bash", "the same settings of the user count");
  });

  it("uses defaults without a section", () => {
    const { settings, diagnostics } = load({});
    assert.deepEqual(diagnostics, []);
    assert.deepEqual(settings, {
      extraRoots: [],
      maxOutputChars: DEFAULT_MAX_OUTPUT_CHARS,
      shell: DEFAULT_SHELL,
      killGraceMs: DEFAULT_KILL_GRACE_MS,
    });
  });

  it("adds up extra roots of every layer and lets the most specific layer set each limit", () => {
    const { settings, diagnostics } = load(
      {
        user: `builtin_tools:\n  extra_roots: [${JSON.stringify(path.join(base, "user-root"))}]\n  max_output_chars: 5000\n  shell: /bin/bash\n`,
        project:
          "builtin_tools:\n  extra_roots: [shared]\n  max_output_chars: 8000\n  command_timeout_ms: 60000\n",
      },
      { extraRoots: [path.join(base, "code-root")], shell: "/bin/sh" },
    );
    assert.deepEqual(diagnostics, []);
    assert.deepEqual(settings.extraRoots, [
      path.join(base, "user-root"),
      path.join(workspace, "shared"),
      path.join(base, "code-root"),
    ]);
    assert.equal(settings.maxOutputChars, 8000);
    assert.equal(settings.commandTimeoutMs, 60000);
    assert.equal(settings.shell, "/bin/sh");
  });

  it("skips a bad key or root with a diagnostic at its line, keeping the rest of the layer", () => {
    const { settings, diagnostics } = load({
      project: [
        "builtin_tools:",
        "  extra_roots:",
        "    - shared",
        "    - 42",
        "    - missing-folder",
        "  max_output_chars: many",
        "  shell: /bin/bash",
      ].join("\n"),
    });
    assert.deepEqual(settings.extraRoots, [path.join(workspace, "shared")]);
    assert.equal(settings.maxOutputChars, DEFAULT_MAX_OUTPUT_CHARS);
    assert.equal(settings.shell, "/bin/bash");
    const lines = diagnostics.map((diagnostic) => [
      diagnostic.code,
      diagnostic.line,
      diagnostic.severity,
    ]);
    assert.deepEqual(lines, [
      ["config_invalid", 4, "error"],
      ["extra_root_missing", 5, "warning"],
      ["config_invalid", 6, "error"],
    ]);
    assert.ok(diagnostics.every((diagnostic) => diagnostic.layer === "project"));
  });

  it("reports a section that is not a mapping", () => {
    const { diagnostics } = load({ user: "builtin_tools: [1, 2]\n" });
    assert.equal(diagnostics.length, 1);
    assert.equal(diagnostics[0]?.layer, "user");
    assert.match(diagnostics[0]?.message ?? "", /must be a mapping/);
  });
});
