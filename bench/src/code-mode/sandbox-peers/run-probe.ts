import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { NODE_22 } from "./peer-packages.js";
import type { SandboxPeer } from "./sandbox-peer.js";

const PROBE = path.join(path.dirname(fileURLToPath(import.meta.url)), "sandbox-probe.js");

/** A probe's figures, or why it could not give them (its last error line). */
export type ProbeResult =
  | { ok: true; figures: Record<string, number | string> }
  | { ok: false; error: string };

/**
 * Runs `sandbox-probe.js PEER ...args` in a fresh process on the peer's Node (22: the peers'
 * folder's binary, first on PATH, so a sandbox that starts `node` itself gets it too), without
 * NODE_EXTRA_CA_CERTS (parsed at every Node start here: ~100 ms of CPU no sandbox needs).
 */
export function runProbe(peer: SandboxPeer, args: readonly string[]): Promise<ProbeResult> {
  const node = peer.node === 22 ? NODE_22 : process.execPath;
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_NO_WARNINGS: "1" };
  delete env.NODE_EXTRA_CA_CERTS;
  if (peer.node === 22) env.PATH = `${path.dirname(NODE_22)}${path.delimiter}${env.PATH ?? ""}`;
  return new Promise((resolve) => {
    const child = spawn(node, [PROBE, peer.name, ...args], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (err = (err + chunk.toString()).slice(-8000)));
    child.once("exit", (code, signal) => {
      const line = out.trim().split("\n").at(-1) ?? "";
      if (code === 0 && line.startsWith("{"))
        return resolve({ ok: true, figures: JSON.parse(line) });
      const reason =
        /^bench-error: (.*)$/m.exec(err)?.[1] ??
        err
          .split("\n")
          .find((l) => /Error|Aborted/.test(l) && !/^\s+at /.test(l))
          ?.trim() ??
        "no error printed";
      resolve({ ok: false, error: `exit ${code ?? signal}: ${reason.slice(0, 400)}` });
    });
  });
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
