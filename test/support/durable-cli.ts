// What the durable-runs CLI tests share: a signing Restate server and a temp workspace, the
// `pseudoclaude serve --durable restate` workers started in it (all stopped by `stop`), and the
// small probes the tests read results with.
import { type ChildProcess, spawn } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { once } from "node:events";
import { readdir, readFile } from "node:fs/promises";
import http2 from "node:http2";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import { CLI_BIN } from "./cli.js";
import { waitFor as waitUntil } from "./durable-restate.js";
import { type RestateServer, startRestate } from "./restate-server.js";

export interface Serve {
  url: string;
  child: ChildProcess;
  output(): string;
  /** SIGTERM, as a supervisor stops it; its exit code. */
  stop(): Promise<number | null>;
}

export interface DurableCli {
  server: RestateServer;
  workspace: TempWorkspace;
  /** `pseudoclaude serve --durable restate --port 0 --json ...` in the workspace. */
  spawnServe(
    args: readonly string[],
    env?: Record<string, string>,
  ): { child: ChildProcess; output: () => string };
  /** A worker, once it listens; stopped by `stop` at the latest. */
  serve(args: readonly string[], env?: Record<string, string>): Promise<Serve>;
  /** A worker whose model writes one file (a side effect: asked in default mode), then says `text`. */
  writingWorker(scriptName: string, file: string, content: string, text: string): Promise<Serve>;
  /** The flags that send a `run` to this server. */
  durable(): string[];
  /** Stops every worker started here, then the server; removes the workspace. */
  stop(): Promise<void>;
}

export async function startDurableCli(): Promise<DurableCli> {
  // It signs its requests to workers, so a worker can check them (--identity-key).
  const server = await startRestate({ signing: true });
  const workspace = await createTempWorkspace("pc-durable-cli-").catch(async (error) => {
    await server.stop();
    throw error;
  });
  const started: Serve[] = [];

  function spawnServe(args: readonly string[], env: Record<string, string> = {}) {
    const child = spawn(
      process.execPath,
      [CLI_BIN, "serve", "--durable", "restate", "--port", "0", "--json", ...args],
      {
        cwd: workspace.root,
        env: { ...process.env, HOME: workspace.home, ...env },
        stdio: ["ignore", "pipe", "pipe"],
        detached: true, // its own process group: whatever it starts ends with it
      },
    );
    let out = "";
    child.stderr!.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString()));
    return { child, output: () => out };
  }

  async function serve(args: readonly string[], env: Record<string, string> = {}): Promise<Serve> {
    const { child, output } = spawnServe(args, env);
    const url = await new Promise<string>((resolve, reject) => {
      let printed = "";
      child.stdout!.on("data", (chunk: Buffer) => {
        printed += chunk.toString();
        // --json prints one document once it listens.
        try {
          resolve((JSON.parse(printed) as { url: string }).url);
        } catch {
          // not whole yet
        }
      });
      child.once("exit", (code) => reject(new Error(`serve exited ${code}: ${output()}`)));
      // stdout must be that document alone: anything else there (a log line) fails here.
      setTimeout(
        () => reject(new Error(`serve printed no JSON document: ${output()}`)),
        30_000,
      ).unref();
    });
    const handle: Serve = {
      url,
      child,
      output,
      async stop() {
        if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
        const exited = once(child, "exit");
        child.kill("SIGTERM");
        const force = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), 10_000);
        const [code] = await exited;
        clearTimeout(force);
        return code as number | null;
      },
    };
    started.push(handle);
    return handle;
  }

  async function writingWorker(
    scriptName: string,
    file: string,
    content: string,
    text: string,
  ): Promise<Serve> {
    const script = await workspace.write(
      scriptName,
      JSON.stringify([
        { tool_calls: [{ name: "write_file", arguments: { path: file, content } }] },
        { text },
      ]),
    );
    return serve(["--script", script, "--mode", "default", "--register", "--admin", server.admin]);
  }

  return {
    server,
    workspace,
    spawnServe,
    serve,
    writingWorker,
    durable: () => ["--durable", "restate", "--ingress", server.ingress],
    async stop() {
      for (const worker of started) await worker.stop();
      await server.stop();
      await workspace.cleanup();
    },
  };
}

/** The status a worker answers a request nobody signed with (its discovery endpoint). */
export async function unsignedStatus(url: string): Promise<number> {
  const session = http2.connect(url);
  try {
    const request = session.request({ ":method": "GET", ":path": "/discover" });
    request.resume();
    const [headers] = (await once(request, "response")) as [http2.IncomingHttpHeaders];
    return Number(headers[":status"]);
  } finally {
    session.close();
  }
}

/** Another server's request identity public key, in Restate's format (base58 of the raw key). */
export function otherKey(): string {
  const { publicKey } = generateKeyPairSync("ed25519");
  const raw = (publicKey.export({ format: "jwk" }) as { x: string }).x;
  const alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
  const bytes = Buffer.from(raw, "base64url");
  let number = BigInt(`0x${bytes.toString("hex")}`);
  // Each leading zero byte is a "1", as base58 writes it.
  let text = "1".repeat(bytes.findIndex((byte) => byte !== 0));
  while (number > 0n) {
    text = alphabet[Number(number % 58n)] + text;
    number /= 58n;
  }
  return `publickeyv1_${text}`;
}

/** A run's JSON with what differs between processes and engines taken out. */
export function comparable(document: Record<string, unknown>): unknown {
  const { session_id, invocation_id, diagnostics, ...rest } = document;
  return JSON.parse(
    JSON.stringify(rest, (key, value) => (key === "duration_ms" ? undefined : value)),
  );
}

/** Wait for what a CLI run shows; runs through the CLI take longer than the agent's own. */
export function waitFor<T>(what: string, probe: () => Promise<T | null | undefined>): Promise<T> {
  return waitUntil(what, probe, 60_000);
}

/** How many live processes have `text` in their command line. */
export async function processesWith(text: string): Promise<number> {
  let count = 0;
  for (const pid of await readdir("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    const command = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "");
    if (command.replaceAll("\0", " ").includes(text) && !command.includes("node")) count += 1;
  }
  return count;
}
