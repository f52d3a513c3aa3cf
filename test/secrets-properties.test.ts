import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { after, before, describe, it } from "node:test";
import { type Agent, createAgent } from "@pseudoclaude/core";
import { MemoryCredentialStore, mcp } from "@pseudoclaude/plugin-mcp";
import { createTempWorkspace } from "@pseudoclaude/testing";
import fc from "fast-check";
import { fixture } from "#mcp-test/mcp-fixtures.js";
import { runCli } from "./support/cli.js";

/**
 * Property: a secret given to a server through `${VAR}` (its env, an HTTP header) never shows
 * in a diagnostic, an error, a tool result the framework writes, or any event payload, however
 * the server fails: it prints it to stderr and exits before the handshake, prints it and dies
 * mid-call, quotes it in an error result, or (over HTTP) echoes the header back in a 401 page.
 * Secrets are random printable text, not credential-shaped, so only the registered value can
 * hide them.
 */
const RUNS = Number(process.env.SECRET_RUNS ?? 8);
/** The CLI case starts a process per command: fewer draws. */
const CLI_RUNS = Math.max(1, Math.ceil(RUNS / 4));
const EVENTS = [
  "tool-call-start",
  "tool-decision",
  "tool-run-start",
  "tool-run-end",
  "tool-call-end",
  "diagnostic",
  "run-end",
];

const secretText = fc
  .string({
    minLength: 10,
    maxLength: 24,
    unit: fc.constantFrom(..."abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789-_.~"),
  })
  .map((body) => `q${body}`);

let server: http.Server;
let url: string;
before(async () => {
  // Refuses every request, quoting the header it got (as careless servers do).
  server = http.createServer((req, res) => {
    res.writeHead(401, { "content-type": "text/plain" });
    res.end(`invalid X-Api-Key ${String(req.headers["x-api-key"])} for this server`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
});
after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function everythingSaid(agent: Agent, seen: unknown[]): string {
  return JSON.stringify([agent.diagnostics(), seen]);
}

describe("property: secrets never show, whatever fails", () => {
  it("a ${VAR} secret in env and headers is in no diagnostic, error, result or event", {
    timeout: 120_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(secretText, async (secret) => {
        process.env.PC_TEST_SECRET = secret;
        const leaky = (phase: string) => ({
          type: "stdio" as const,
          command: process.execPath,
          args: [fixture("leaky")],
          env: { LEAKY_SECRET: "${PC_TEST_SECRET}", LEAKY_PHASE: phase },
        });
        const seen: unknown[] = [];
        const agent = await createAgent({
          config: false,
          workspace: os.tmpdir(),
          policy: { mode: "bypass" },
          plugins: [
            mcp({
              servers: {
                early: leaky("start"),
                late: leaky("call"),
                remote: { type: "http", url, headers: { "X-Api-Key": "${PC_TEST_SECRET}" } },
              },
              credentials: new MemoryCredentialStore(),
            }),
          ],
        });
        try {
          for (const event of EVENTS)
            agent.on(event as "diagnostic", (payload: unknown) => seen.push(payload));
          const refused = await agent.callTool("mcp__late__refuse", {});
          const boom = await agent.callTool("mcp__late__boom", {});
          seen.push(refused, boom);
          const said = everythingSaid(agent, seen);
          assert.ok(said.includes("***"), "something was redacted, so the failures did happen");
          assert.ok(
            !said.includes(secret),
            `the secret ${secret} showed in: ${said.slice(0, 2000)}`,
          );
        } finally {
          await agent.close();
          delete process.env.PC_TEST_SECRET;
        }
      }),
      { numRuns: RUNS },
    );
  });
  it("nor in what the CLI prints, with --json or without, on stdout or stderr", {
    timeout: 300_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(secretText, async (secret) => {
        const workspace = await createTempWorkspace("pc-secrets-cli-");
        try {
          const leaky = (phase: string) =>
            `    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(fixture("leaky"))}]\n    env: { LEAKY_SECRET: "\${PC_TEST_SECRET}", LEAKY_PHASE: ${phase} }\n`;
          // The user layer: servers there start without a project approval.
          await workspace.writeConfig(
            "user",
            `mcp_servers:\n  early:\n${leaky("start")}  late:\n${leaky("call")}  remote:\n    type: http\n    url: ${url}\n    headers: { X-Api-Key: "\${PC_TEST_SECRET}" }\n`,
          );
          const env = { PC_TEST_SECRET: secret };
          const runs = [
            await runCli(workspace, ["tools", "--json"], { env }),
            await runCli(workspace, ["tools"], { env }),
            await runCli(workspace, ["call", "mcp__late__refuse", "{}", "--json", "--yes"], {
              env,
            }),
            await runCli(workspace, ["call", "mcp__late__boom", "{}", "--json", "--yes"], { env }),
            await runCli(workspace, ["call", "mcp__late__boom", "{}", "--yes"], { env }),
            await runCli(workspace, ["config", "--json"], { env }),
          ];
          const said = JSON.stringify(runs);
          assert.ok(
            said.includes("***"),
            `nothing was redacted, so nothing failed: ${said.slice(0, 1500)}`,
          );
          assert.ok(
            !said.includes(secret),
            `the secret ${secret} showed in: ${said.slice(0, 3000)}`,
          );
        } finally {
          await workspace.cleanup();
        }
      }),
      { numRuns: CLI_RUNS },
    );
  });
});
