// A script started as an HTTP server on a free port (PORT in its environment), ready once the
// port accepts connections; stopped with SIGTERM, then SIGKILL.
import { type ChildProcess, spawn } from "node:child_process";
import net from "node:net";

/** A TCP port nothing listens on right now (the OS picked it, then we let it go). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A running HTTP server process. */
export interface HttpServerProcess {
  readonly port: number;
  readonly child: ChildProcess;
  /** `http://127.0.0.1:<port><pathname>`. */
  url(pathname: string): string;
  /** The tail of what it wrote to stdout and stderr (bounded). */
  stdout(): string;
  stderr(): string;
  /** True until the process exits. */
  running(): boolean;
  /** Ends the process (SIGTERM, then SIGKILL) and waits for its exit. Safe to call twice. */
  stop(): Promise<void>;
}

export interface StartHttpServerOptions {
  /** Script run with this Node binary. */
  script: string;
  args?: string[];
  /** Added to this process's environment; PORT is set to the chosen port. */
  env?: Record<string, string>;
  /** How long the server may take to accept connections. Default 15 s. */
  readyTimeoutMs?: number;
}

const TAIL_CHARS = 64 * 1024;

/** Spawn `node <script> <args>` with PORT set and wait until the port accepts connections. */
export async function startHttpServer(options: StartHttpServerOptions): Promise<HttpServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [options.script, ...(options.args ?? [])], {
    env: { ...process.env, ...options.env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout = (stdout + chunk.toString()).slice(-TAIL_CHARS);
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-TAIL_CHARS);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const running = () => child.exitCode === null && child.signalCode === null;

  const stop = async () => {
    if (running()) {
      child.kill("SIGTERM");
      const killer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(killer);
    }
  };

  try {
    await waitForPort(port, options.readyTimeoutMs ?? 15_000, running);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\nstderr of ${options.script}:\n${stderr}`);
  }
  return {
    port,
    child,
    url: (pathname) => `http://127.0.0.1:${port}${pathname}`,
    stdout: () => stdout,
    stderr: () => stderr,
    running,
    stop,
  };
}

async function waitForPort(port: number, ms: number, running: () => boolean): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!running()) throw new Error(`The server process exited before listening on ${port}.`);
    if (await accepts(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`The server did not listen on port ${port} within ${ms} ms.`);
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
