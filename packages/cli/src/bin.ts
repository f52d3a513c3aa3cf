#!/usr/bin/env node
// tsyringe needs the Reflect metadata API before anything that imports it is loaded.
import "reflect-metadata";
import { EXIT } from "./exit-codes.js";
import { main } from "./main.js";

const interrupt = new AbortController();
// A command that takes Ctrl-C over (chat: cancel the turn, keep the session).
const handlers: Array<() => boolean> = [];
process.on("SIGINT", () => {
  const handler = handlers[handlers.length - 1];
  if (handler && !interrupt.signal.aborted && handler()) return;
  // First Ctrl-C: abort the run and close the agent cleanly. Second: stop waiting.
  if (interrupt.signal.aborted) process.exit(EXIT.interrupted);
  process.stderr.write("\nInterrupted; closing (Ctrl-C again to force).\n");
  interrupt.abort(new Error("Interrupted (SIGINT)."));
});
// Killed by a supervisor or a closed terminal: close the agent too, so no server or command
// it started outlives it (Node's default would exit at once, skipping every cleanup).
for (const signal of ["SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    if (interrupt.signal.aborted) process.exit(EXIT.interrupted);
    interrupt.abort(new Error(`Terminated (${signal}).`));
  });
}

const code = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  cwd: process.cwd(),
  signal: interrupt.signal,
  onInterrupt(handler) {
    handlers.push(handler);
    return () => {
      const index = handlers.indexOf(handler);
      if (index !== -1) handlers.splice(index, 1);
    };
  },
});
const interrupted = interrupt.signal.aborted && code !== EXIT.usage;
// Flush both streams, then exit: the agent is closed, so nothing left may keep us alive.
await new Promise((resolve) => process.stdout.write("", resolve));
await new Promise((resolve) => process.stderr.write("", resolve));
process.exit(interrupted ? EXIT.interrupted : code);
