// The real Restate server from npm, for the durable-runs tests: bound to 127.0.0.1 only,
// telemetry off, in a temporary base directory; stopped (and its directory removed) by `stop`.
import { type ChildProcess, spawn } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { once } from "node:events";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const require = createRequire(import.meta.url);

/** The server binary inside its platform package, as `npx restate-server` finds it. */
function serverBinary(): string {
  return require.resolve(
    `@restatedev/restate-server-${os.platform()}-${os.arch()}/bin/restate-server`,
  );
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as net.AddressInfo;
  server.close();
  await once(server, "close");
  return port;
}

export interface RestateServer {
  ingress: string;
  admin: string;
  /** Register a worker (its endpoint URL) with the server. */
  register(uri: string): Promise<void>;
  stop(): Promise<void>;
  /** What the server printed, for failure messages. */
  output(): string;
  /** With `{ signing: true }`: the public key it signs requests with (`publickeyv1_…`). */
  identityKey?: string;
}

/**
 * `signing`: the server signs its requests to workers with a fresh ed25519 key. Its ports are
 * free when picked, but another test may take one before the server binds it: a server that
 * exits on "Address in use" is started again on new ports (at most three times).
 */
export async function startRestate(options: { signing?: boolean } = {}): Promise<RestateServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startRestateOnce(options);
    } catch (error) {
      if (attempt >= 3 || !/Address in use/.test(String(error))) throw error;
    }
  }
}

async function startRestateOnce(options: { signing?: boolean }): Promise<RestateServer> {
  const base = await mkdtemp(path.join(os.tmpdir(), "pc-restate-"));
  const signing: Record<string, string> = {};
  if (options.signing) {
    const pem = path.join(base, "request-identity.pem");
    const { privateKey } = generateKeyPairSync("ed25519");
    await writeFile(pem, privateKey.export({ type: "pkcs8", format: "pem" }));
    signing.RESTATE_WORKER__INVOKER__REQUEST_IDENTITY_PRIVATE_KEY_PEM_FILE = pem;
  }
  const [node, ingressPort, adminPort] = [await freePort(), await freePort(), await freePort()];
  const child: ChildProcess = spawn(serverBinary(), [], {
    cwd: base,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: base,
      // The invoker makes a scratch folder per partition in the temp folder and leaves it
      // there when it stops; in the base folder, stop() removes them with the rest.
      TMPDIR: base,
      RESTATE_BASE_DIR: base,
      RESTATE_BIND_ADDRESS: `127.0.0.1:${node}`,
      RESTATE_ADVERTISED_ADDRESS: `http://127.0.0.1:${node}`,
      RESTATE_INGRESS__BIND_ADDRESS: `127.0.0.1:${ingressPort}`,
      RESTATE_ADMIN__BIND_ADDRESS: `127.0.0.1:${adminPort}`,
      RESTATE_LISTEN_MODE: "tcp",
      RESTATE_DISABLE_TELEMETRY: "true",
      ...signing,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const admin = `http://127.0.0.1:${adminPort}`;
  const ingress = `http://127.0.0.1:${ingressPort}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    }
    await rm(base, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`restate-server exited (${child.exitCode}):\n${output}`);
    }
    const ready = await Promise.all([
      fetch(`${admin}/health`).then(
        (response) => response.ok,
        () => false,
      ),
      fetch(`${ingress}/restate/health`).then(
        (response) => response.ok,
        () => false,
      ),
    ]);
    // A signing server logs its public key at start ("kid: publickeyv1_…").
    const kid = /publickeyv1_[1-9A-HJ-NP-Za-km-z]+/.exec(output)?.[0];
    if (ready.every(Boolean) && (!options.signing || kid)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`restate-server did not become ready:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    ingress,
    admin,
    ...(options.signing
      ? { identityKey: /publickeyv1_[1-9A-HJ-NP-Za-km-z]+/.exec(output)?.[0] ?? "" }
      : {}),
    output: () => output,
    stop,
    async register(uri) {
      const response = await fetch(`${admin}/deployments`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ uri, force: true }),
      });
      if (!response.ok)
        throw new Error(`registering ${uri}: ${response.status} ${await response.text()}`);
    },
  };
}
