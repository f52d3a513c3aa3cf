// A cloned repository's files (its .PseudoClaude/config.yaml, .mcp.json, .claude/settings.json)
// are a stranger's: they may always narrow what the agent does, but whatever would widen it (a
// provider endpoint that would receive the user's key, allow rules, a looser mode, extra roots,
// an MCP server, a hook) counts only once the user consented, through `pseudoclaude trust`. The
// tests of that drive the real built CLI in temp workspaces; this is what they share: one temp
// workspace per scene with a check that nothing the CLI started outlives it, the shapes of what
// the CLI prints with --json, stdio MCP servers that log each start, and a counting HTTP server.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import {
  describePids,
  markedProcesses,
  markerEnv,
  newMarker,
  stillRunningAfter,
} from "@pseudoclaude/testing/system";
import { type CliRun, parseJson, runCli } from "./cli.js";

export const TIMEOUT = { timeout: 60_000 };
const BEHAVIOURS = fileURLToPath(import.meta.resolve("#mcp-fixtures/behaviours.js"));

/** Variables of this machine that would change what the CLI picks; each test sets its own. */
const MACHINE_VARIABLES = [
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_AUTH_TOKEN",
  "ANTHROPIC_BASE_URL",
  "OPENAI_API_KEY",
  "OPENAI_BASE_URL",
  "GITHUB_TOKEN",
  "SECRET_PATH",
];

// ---- What the CLI prints with --json ----------------------------------------------------

export interface Diagnostic {
  code?: string;
  severity: string;
  message: string;
  item?: string;
  file?: string;
  line?: number;
  blocking?: boolean;
}

export interface ResultJson {
  ok: boolean;
  content: Array<{ type: string; text?: string }>;
  error?: { code: string; message: string };
}

export interface CallJson extends ResultJson {
  decision: { decision: string; matched?: Record<string, unknown> };
}

export interface RunJson {
  text: string;
  tool_calls: Array<{ name: string; decision: string; result: ResultJson }>;
  diagnostics: Diagnostic[];
}

export interface ToolsJson {
  tools: Array<{ name: string }>;
  sources: Array<{ id: string; state: string }>;
  diagnostics: Diagnostic[];
}

export interface TrustRequest {
  id: string;
  kind: string;
  name: string;
  summary: string;
  effects: string[];
  digest: string;
  state: "approved" | "needs-approval";
}

export interface TrustJson {
  workspace: string;
  requests: TrustRequest[];
  approvals: Array<{ id: string; digest: string; current: boolean }>;
}

// ---- Helpers -------------------------------------------------------------------------------

/**
 * One temp workspace for one test, and everything it started: every CLI run is checked for
 * processes carrying the test's marker left behind, and the workspace is removed at the end.
 */
export interface Scene {
  workspace: TempWorkspace;
  marker: string;
  /** `~/.PseudoClaude/approvals.json` of the workspace's fake home. */
  approvalsFile: string;
  /** Run the real CLI (machine keys unset); nothing it started may outlive it. */
  cli(args: readonly string[], env?: Record<string, string>): Promise<CliRun>;
  trust(): Promise<TrustJson>;
}

export async function withScene(
  prefix: string,
  body: (scene: Scene) => Promise<void>,
): Promise<void> {
  const workspace = await createTempWorkspace(prefix);
  const marker = newMarker();
  const scene: Scene = {
    workspace,
    marker,
    approvalsFile: path.join(workspace.home, ".PseudoClaude", "approvals.json"),
    cli: async (args, env = {}) => {
      const run = await runCli(workspace, args, {
        env,
        unset: MACHINE_VARIABLES,
        timeoutMs: 40_000,
      });
      const left = await stillRunningAfter(markedProcesses(marker), 1_000);
      assert.deepEqual(left, [], `left running after "${args.join(" ")}": ${describePids(left)}`);
      return run;
    },
    trust: async () => {
      const run = await scene.cli(["trust", "--json"]);
      assert.equal(run.code, 0, run.stderr);
      return parseJson<TrustJson>(run);
    },
  };
  try {
    await body(scene);
  } finally {
    await workspace.cleanup();
  }
}

export const textOf = (result: ResultJson) =>
  result.content.map((block) => block.text ?? "").join("\n");

/** `id → state` of every request `trust --json` lists. */
export const states = (trust: TrustJson) =>
  Object.fromEntries(trust.requests.map((request) => [request.id, request.state]));

export const source = (tools: ToolsJson, id: string) =>
  tools.sources.find((entry) => entry.id === id);

/** A script for `run --script`: one run_command call, then an answer. */
export async function commandScript(workspace: TempWorkspace, command: string): Promise<string> {
  return workspace.write(
    "script.json",
    JSON.stringify([
      { tool_calls: [{ name: "run_command", arguments: { command } }] },
      { text: "done" },
    ]),
  );
}

/**
 * A stdio MCP server for a config's `mcp_servers`: a shell wrapper that appends one line to
 * `spawnLog` per start, then becomes the real `behaviours` server. It carries the scene's
 * marker, so any process of it left running is found.
 */
export function stdioServer(spawnLog: string, marker: string) {
  return {
    command: "/bin/sh",
    args: ["-c", `echo spawned >> '${spawnLog}'; exec '${process.execPath}' '${BEHAVIOURS}'`],
    env: markerEnv(marker),
  };
}

/** The same as YAML lines under `mcp_servers:`, with `extra` keys (e.g. `read_only: true`). */
export function stdioServerYaml(
  name: string,
  spawnLog: string,
  marker: string,
  extra: string[] = [],
) {
  const server = stdioServer(spawnLog, marker);
  return [
    `  ${name}:`,
    `    command: ${server.command}`,
    `    args: ${JSON.stringify(server.args)}`,
    "    env:",
    ...Object.entries(server.env).map(([key, value]) => `      ${key}: ${JSON.stringify(value)}`),
    ...extra.map((line) => `    ${line}`),
  ].join("\n");
}

/** How many times the wrapper at `spawnLog` really started. */
export async function spawns(spawnLog: string): Promise<number> {
  return (await readFile(spawnLog, "utf8").catch(() => "")).split("\n").filter(Boolean).length;
}

/** A plain HTTP server that counts every request (and its path) and answers 404. */
export interface CountingServer {
  url: string;
  paths: string[];
  close(): Promise<void>;
}

export async function startCountingServer(): Promise<CountingServer> {
  const paths: string[] = [];
  const server = http.createServer((request, response) => {
    paths.push(request.url ?? "");
    request.resume();
    response.writeHead(404, { "content-type": "text/plain" });
    response.end("not here");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    paths,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** JSON with sorted keys and no spaces, as the digest of an older release was computed. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(",")}}`;
  return JSON.stringify(value);
}
