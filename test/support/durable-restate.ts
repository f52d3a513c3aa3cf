// What the durable-runs tests on the real Restate server share: the server and a temp folder
// (both removed by `stop`), workers of the scripted ledger agent (test/fixtures/durable), and
// the ingress and admin calls the tests submit runs and read their state with.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { RunResult } from "@pseudoclaude/core";
import type { PendingApproval } from "@pseudoclaude/durable-restate";
import type { ScriptedStep } from "@pseudoclaude/testing";
import { type RestateServer, startRestate } from "./restate-server.js";

const WORKER = fileURLToPath(new URL("../fixtures/durable/worker.js", import.meta.url));

export interface Worker {
  child: ChildProcess;
  /** Kill the worker and everything it started (its MCP server), without warning. */
  kill(): Promise<void>;
}

export interface SubmittedRun {
  invocationId: string;
  /** Attaches to the run until it completes. */
  result(): Promise<RunResult>;
}

export interface DurableRestate {
  server: RestateServer;
  /** The workers' workspace, and where the tests keep their ledgers. */
  dir: string;
  /** A worker on `port` (the same port after a restart: Restate pins a run to its deployment). */
  startWorker(
    port: number,
    script: ScriptedStep[],
    ledger: string,
    extra?: Record<string, string>,
  ): Promise<Worker>;
  /** Submit a run without waiting; `result` attaches to it until it completes. */
  submit(session: string, prompt: string): Promise<SubmittedRun>;
  pending(session: string): Promise<PendingApproval[]>;
  /** What the server says of an invocation, read from the server alone (no worker needed). */
  invocationStatus(id: string): Promise<string | undefined>;
  /** Invocations of the session object's `events` handler and of its event bell, so far. */
  followInvocations(): Promise<number>;
  stop(): Promise<void>;
}

export async function startDurableRestate(): Promise<DurableRestate> {
  const server = await startRestate();
  const dir = await mkdtemp(path.join(os.tmpdir(), "pc-durable-")).catch(async (error) => {
    await server.stop();
    throw error;
  });

  async function startWorker(
    port: number,
    script: ScriptedStep[],
    ledger: string,
    extra: Record<string, string> = {},
  ): Promise<Worker> {
    const child = spawn(process.execPath, [WORKER], {
      detached: true, // its own process group, so a kill takes its MCP server too
      env: {
        ...process.env,
        DURABLE_PORT: String(port),
        DURABLE_WORKSPACE: dir,
        DURABLE_SCRIPT: JSON.stringify(script),
        FIXTURE_LOG: ledger,
        ...extra,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("listening")) resolve();
      });
      child.stderr!.on("data", (chunk: Buffer) => (out += chunk.toString()));
      child.once("exit", (code) => reject(new Error(`worker exited ${code}: ${out}`)));
    });
    return {
      child,
      async kill() {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = once(child, "exit");
        process.kill(-child.pid!, "SIGKILL");
        await exited;
      },
    };
  }

  async function submit(session: string, prompt: string): Promise<SubmittedRun> {
    const response = await fetch(`${server.ingress}/pseudoclaude/${session}/run/send`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ prompt }),
    });
    assert.equal(response.status, 202, await response.clone().text());
    const { invocationId } = (await response.json()) as { invocationId: string };
    return {
      invocationId,
      result: async (): Promise<RunResult> => {
        const attached = await fetch(`${server.ingress}/restate/invocation/${invocationId}/attach`);
        const text = await attached.text();
        assert.equal(attached.status, 200, text);
        return JSON.parse(text) as RunResult;
      },
    };
  }

  async function pending(session: string): Promise<PendingApproval[]> {
    const response = await fetch(`${server.ingress}/pseudoclaude/${session}/pending`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "null",
    });
    return (await response.json()) as PendingApproval[];
  }

  async function invocationStatus(id: string): Promise<string | undefined> {
    const response = await fetch(`${server.admin}/query`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ query: `select status from sys_invocation where id = '${id}'` }),
    });
    const { rows } = (await response.json()) as { rows: Array<{ status: string }> };
    return rows[0]?.status;
  }

  async function followInvocations(): Promise<number> {
    const response = await fetch(`${server.admin}/query`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({
        query:
          "select count(*) as n from sys_invocation where (target_service_name = 'pseudoclaude' " +
          "and target_handler_name = 'events') or target_service_name = 'pseudoclaude_events'",
      }),
    });
    const { rows } = (await response.json()) as { rows: Array<{ n: number }> };
    return Number(rows[0]?.n ?? 0);
  }

  return {
    server,
    dir,
    startWorker,
    submit,
    pending,
    invocationStatus,
    followInvocations,
    async stop() {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export async function ledgerOf(file: string): Promise<string[]> {
  return (await readFile(file, "utf8").catch(() => "")).split("\n").filter(Boolean);
}

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | null | undefined>,
  ms = 30_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = await probe();
    if (found != null) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A run, with what differs between processes (durations) taken out. */
export function comparable(result: RunResult): unknown {
  return JSON.parse(
    JSON.stringify(result, (key, value) => (key === "duration_ms" ? undefined : value)),
  );
}
