// Consent before a project's servers start: a cloned repository's config (or .mcp.json) must
// not run its commands on the first `pseudoclaude` run. The real CLI, a real stdio server
// behind a wrapper that records every spawn, and a process check after every command.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { createAgent } from "@pseudoclaude/core";
import { type ConsentStore, FileConsentStore } from "@pseudoclaude/core/consent";
import { mcp } from "@pseudoclaude/plugin-mcp";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import {
  describePids,
  markedProcesses,
  markerEnv,
  newMarker,
  stillRunningAfter,
} from "@pseudoclaude/testing/system";
import { type CliRun, parseJson, runCli } from "./support/cli.js";

const BEHAVIOURS = fileURLToPath(import.meta.resolve("#mcp-fixtures/behaviours.js"));
const TIMEOUT = { timeout: 60_000 };

interface Consent {
  workspace: TempWorkspace;
  /** How many times the server's command was really started. */
  spawns(): Promise<number>;
  /** Run the CLI; nothing it started may outlive it. */
  run(args: readonly string[]): Promise<CliRun>;
  /** The project's server entry (YAML) with `extra` arguments: a changed command. */
  serverEntry(extra?: string[]): string;
  approvalsFile: string;
}

interface ToolsJson {
  tools: Array<{ name: string }>;
  sources: Array<{ id: string; state: string; parts?: Array<{ state: string; message?: string }> }>;
  diagnostics: Array<{ code?: string; severity: string; message: string }>;
}

async function withConsent(body: (consent: Consent) => Promise<void>): Promise<void> {
  const workspace = await createTempWorkspace("pc-consent-");
  const marker = newMarker();
  const spawnLog = path.join(workspace.root, "spawned.log");
  // A wrapper that writes one line per start, then becomes the real server.
  const serverEntry = (extra: string[] = []) =>
    [
      "  beh:",
      "    command: /bin/sh",
      `    args: ${JSON.stringify(["-c", `echo spawned >> '${spawnLog}'; exec '${process.execPath}' '${BEHAVIOURS}' "$@"`, "sh", ...extra])}`,
      "    env:",
      ...Object.entries(markerEnv(marker)).map(
        ([key, value]) => `      ${key}: ${JSON.stringify(value)}`,
      ),
    ].join("\n");
  const consent: Consent = {
    workspace,
    spawns: async () =>
      (await readFile(spawnLog, "utf8").catch(() => "")).split("\n").filter(Boolean).length,
    run: async (args) => {
      const run = await runCli(workspace, args);
      const left = await stillRunningAfter(markedProcesses(marker), 500);
      assert.deepEqual(left, [], `left running after "${args.join(" ")}": ${describePids(left)}`);
      return run;
    },
    serverEntry,
    approvalsFile: path.join(workspace.home, ".PseudoClaude", "approvals.json"),
  };
  try {
    await body(consent);
  } finally {
    await workspace.cleanup();
  }
}

const beh = (json: ToolsJson) => json.sources.find((source) => source.id === "mcp:beh");

describe("consent before a project's servers start", () => {
  it(
    "never starts an unapproved project server and lists it as needs-approval with how to approve",
    TIMEOUT,
    async () => {
      await withConsent(async ({ workspace, run, spawns, serverEntry, approvalsFile }) => {
        await workspace.writeConfig("project", `mcp_servers:\n${serverEntry()}\n`);
        const listed = await run(["tools", "--json", "--strict"]);
        assert.equal(listed.code, 0, "needing approval is not an error, even with --strict");
        const json = parseJson<ToolsJson>(listed);
        assert.equal(beh(json)?.state, "needs-approval");
        assert.equal(beh(json)?.parts?.[0]?.state, "needs-approval");
        assert.match(
          beh(json)?.parts?.[0]?.message ?? "",
          /Approve it with: pseudoclaude mcp approve beh/,
        );
        assert.ok(!json.tools.some((tool) => tool.name.startsWith("mcp__beh__")));
        const note = json.diagnostics.find(
          (diagnostic) => diagnostic.code === "mcp_server_needs_approval",
        );
        assert.equal(note?.severity, "info");
        assert.match(
          note?.message ?? "",
          /Project server "beh" is not started: it comes with the workspace \(\/bin\/sh -c /,
        );
        const text = await run(["tools"]);
        assert.match(text.stdout, /mcp:beh {2}needs-approval/);
        const call = await run(["call", "mcp__beh__echo", '{"text":"hi"}', "--json"]);
        assert.notEqual(call.code, 0);
        assert.equal(await spawns(), 0, "the command never ran");
        assert.equal(existsSync(approvalsFile), false);
      });
    },
  );

  it(
    "remembers an approval in the user's files, and asks again when the command changes",
    TIMEOUT,
    async () => {
      await withConsent(async ({ workspace, run, spawns, serverEntry, approvalsFile }) => {
        await workspace.writeConfig("project", `mcp_servers:\n${serverEntry()}\n`);
        const approved = await run(["mcp", "approve", "--json"]);
        assert.equal(approved.code, 0, approved.stderr);
        const approval = parseJson<{
          approved: Array<{ name: string; summary: string; digest: string }>;
        }>(approved);
        assert.deepEqual(
          approval.approved.map((entry) => entry.name),
          ["beh"],
        );
        assert.match(approval.approved[0]?.digest ?? "", /^sha256:[0-9a-f]{64}$/);
        assert.equal(await spawns(), 0, "approving runs nothing");
        const stored = JSON.parse(await readFile(approvalsFile, "utf8"));
        assert.ok(Object.keys(stored.workspaces).some((key) => key.endsWith("workspace")));
        assert.ok(
          !existsSync(path.join(workspace.root, ".PseudoClaude", "approvals.json")),
          "not in the workspace",
        );

        const ready = parseJson<ToolsJson>(await run(["tools", "--json"]));
        assert.equal(beh(ready)?.state, "ready");
        assert.ok(ready.tools.some((tool) => tool.name === "mcp__beh__echo"));
        assert.equal(await spawns(), 1);
        const again = await run(["mcp", "approve"]);
        assert.match(again.stdout, /Nothing to approve/);

        await workspace.writeConfig("project", `mcp_servers:\n${serverEntry(["--changed"])}\n`);
        const changed = parseJson<ToolsJson>(await run(["tools", "--json"]));
        assert.equal(
          beh(changed)?.state,
          "needs-approval",
          "a changed command needs approval again",
        );
        assert.equal(await spawns(), 1);
        const list = parseJson<{ servers: Array<{ name: string; approved: boolean }> }>(
          await run(["mcp", "list", "--json"]),
        );
        assert.deepEqual(
          list.servers.map((server) => [server.name, server.approved]),
          [["beh", false]],
        );
      });
    },
  );

  it(
    "lets --trust-project, not --yes, start them for one run without remembering, and revoke forget an approval",
    TIMEOUT,
    async () => {
      await withConsent(async ({ workspace, run, spawns, serverEntry, approvalsFile }) => {
        await workspace.writeConfig("project", `mcp_servers:\n${serverEntry()}\n`);
        const answered = await run([
          "call",
          "mcp__beh__echo",
          '{"text":"once"}',
          "--json",
          "--yes",
        ]);
        assert.notEqual(answered.code, 0, "--yes answers tool approvals only");
        assert.equal(await spawns(), 0);
        const call = await run([
          "call",
          "mcp__beh__echo",
          '{"text":"once"}',
          "--json",
          "--trust-project",
          "--yes",
        ]);
        assert.equal(call.code, 0, call.stderr);
        assert.equal(await spawns(), 1);
        assert.equal(existsSync(approvalsFile), false, "--trust-project remembers nothing");
        assert.equal(
          beh(parseJson<ToolsJson>(await run(["tools", "--json"])))?.state,
          "needs-approval",
        );

        await run(["mcp", "approve", "beh"]);
        const revoked = parseJson<{ revoked: Array<{ name: string }> }>(
          await run(["mcp", "revoke", "--json"]),
        );
        assert.deepEqual(
          revoked.revoked.map((entry) => entry.name),
          ["beh"],
        );
        assert.equal(
          beh(parseJson<ToolsJson>(await run(["tools", "--json"])))?.state,
          "needs-approval",
        );
        assert.equal(await spawns(), 1);
        const unknown = await run(["mcp", "approve", "nope"]);
        assert.equal(unknown.code, 2);
        assert.match(
          unknown.stderr,
          /No server of this workspace that needs approval is named "nope" \(those that do: beh\)/,
        );
      });
    },
  );

  it("needs no approval for the user's own servers", TIMEOUT, async () => {
    await withConsent(async ({ workspace, run, spawns, serverEntry }) => {
      await workspace.writeConfig("user", `mcp_servers:\n${serverEntry()}\n`);
      assert.equal(beh(parseJson<ToolsJson>(await run(["tools", "--json"])))?.state, "ready");
      assert.equal(await spawns(), 1);
      const list = await run(["mcp", "list"]);
      assert.match(list.stdout, /No server of this workspace needs approval/);
    });
  });

  it(
    "treats servers from .mcp.json like our own: approval first, then the same tools",
    TIMEOUT,
    async () => {
      await withConsent(async ({ workspace, run, spawns }) => {
        const spawnLog = path.join(workspace.root, "spawned.log");
        await writeFile(
          path.join(workspace.root, ".mcp.json"),
          JSON.stringify({
            mcpServers: {
              beh: {
                command: "/bin/sh",
                args: [
                  "-c",
                  `echo spawned >> '${spawnLog}'; exec '\${NODE:-${process.execPath}}' '${BEHAVIOURS}'`,
                ],
              },
            },
          }),
        );
        assert.equal(
          beh(parseJson<ToolsJson>(await run(["tools", "--json"])))?.state,
          "needs-approval",
        );
        assert.equal(await spawns(), 0);
        await run(["mcp", "approve", "beh"]);
        const call = await run([
          "call",
          "mcp__beh__echo",
          '{"text":"from .mcp.json"}',
          "--json",
          "--yes",
        ]);
        assert.equal(call.code, 0, call.stderr);
        assert.match(call.stdout, /from \.mcp\.json/);
        assert.equal(await spawns(), 1);
      });
    },
  );

  it("never overwrites an approvals file it cannot read", TIMEOUT, async () => {
    await withConsent(async ({ workspace, run, serverEntry, approvalsFile }) => {
      await workspace.writeConfig("project", `mcp_servers:\n${serverEntry()}\n`);
      await mkdir(path.dirname(approvalsFile), { recursive: true });
      await writeFile(approvalsFile, "{ not json");
      const approve = await run(["mcp", "approve"]);
      assert.equal(approve.code, 2);
      assert.match(
        approve.stderr,
        /Cannot use the approvals file .*approvals\.json .*it is left as it is/,
      );
      assert.equal(await readFile(approvalsFile, "utf8"), "{ not json");
    });
  });

  it(
    "applies the same rule to agents composed in code, which can approve for themselves",
    TIMEOUT,
    async () => {
      await withConsent(async ({ workspace, spawns, serverEntry }) => {
        await workspace.writeConfig("project", `mcp_servers:\n${serverEntry()}\n`);
        const compose = (projectApprovals?: "all" | ConsentStore) =>
          createAgent({
            workspace: workspace.root,
            config: { homeDir: workspace.home },
            plugins: [mcp()],
            ...(projectApprovals ? { projectApprovals } : {}),
          });
        const byDefault = await compose();
        try {
          assert.equal(
            byDefault.sources().find((source) => source.id === "mcp:beh")?.status.state,
            "needs-approval",
          );
        } finally {
          await byDefault.close();
        }
        assert.equal(await spawns(), 0);
        const all = await compose("all");
        try {
          assert.equal(
            all.sources().find((source) => source.id === "mcp:beh")?.status.state,
            "ready",
          );
        } finally {
          await all.close();
        }
        const store = new FileConsentStore(path.join(workspace.root, "..", "own-approvals.json"));
        const own = await compose(store);
        try {
          assert.equal(
            own.sources().find((source) => source.id === "mcp:beh")?.status.state,
            "needs-approval",
          );
        } finally {
          await own.close();
        }
        assert.equal(await spawns(), 1);
      });
    },
  );
});
