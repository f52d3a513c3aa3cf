// Memory of a stdio server's stderr: a server that writes FLOOD_MB megabytes to
// stderr, read the naive way (one growing buffer) as the baseline and our way (a bounded tail
// inside the MCP plugin). Reports heap growth of each; exits 1 if ours is not bounded.
import "reflect-metadata";
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createAgent } from "@pseudoclaude/core";
import { mcp } from "@pseudoclaude/plugin-mcp";

const here = path.dirname(fileURLToPath(import.meta.url));
const flood = path.join(
  here,
  "..",
  "..",
  "..",
  "plugins",
  "mcp",
  "dist",
  "test",
  "fixtures",
  "stderr-flood.js",
);
const FLOOD_MB = Number(process.env.BENCH_FLOOD_MB ?? 48);
const LIMIT_MB = Number(process.env.BENCH_STDERR_LIMIT_MB ?? 12);

function heapMb(): number {
  global.gc?.();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

async function unboundedBaseline(): Promise<number> {
  const before = heapMb();
  const chunks: Buffer[] = [];
  const child = spawn(process.execPath, [flood], {
    env: { ...process.env, FIXTURE_FLOOD_MB: String(FLOOD_MB) },
  });
  child.stderr.on("data", (chunk: Buffer) => chunks.push(chunk));
  await new Promise<void>((resolve) => {
    child.stderr.on("data", (chunk: Buffer) => {
      if (chunk.includes("last line before serving")) resolve();
    });
  });
  const grown = heapMb() + process.memoryUsage().arrayBuffers / 1024 / 1024 - before;
  child.kill("SIGKILL");
  chunks.length = 0;
  return grown;
}

async function ours(): Promise<number> {
  const before = heapMb() + process.memoryUsage().arrayBuffers / 1024 / 1024;
  const agent = await createAgent({
    config: false,
    plugins: [
      mcp({
        servers: {
          flood: {
            command: process.execPath,
            args: [flood],
            env: { FIXTURE_FLOOD_MB: String(FLOOD_MB) },
          },
        },
      }),
    ],
  });
  const grown = heapMb() + process.memoryUsage().arrayBuffers / 1024 / 1024 - before;
  if (!agent.registry.get("mcp__flood__ping")) throw new Error("flood server did not connect");
  await agent.close();
  return grown;
}

const baseline = await unboundedBaseline();
const bounded = await ours();
console.log(
  JSON.stringify(
    {
      stderr_flood_mb: FLOOD_MB,
      unbounded_buffer_growth_mb: Math.round(baseline),
      mcp_plugin_growth_mb: Math.round(bounded),
      limit_mb: LIMIT_MB,
    },
    null,
    2,
  ),
);
if (bounded > LIMIT_MB) {
  console.error(`stderr memory not bounded: grew ${bounded.toFixed(1)} MB (limit ${LIMIT_MB} MB)`);
  process.exit(1);
}
console.log("bench: stderr tail bounded");
