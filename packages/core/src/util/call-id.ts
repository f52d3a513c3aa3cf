import { randomBytes } from "node:crypto";

/** Random per process, so ids from two processes (two traces, two logs) do not meet. */
const PROCESS_PREFIX = randomBytes(8).toString("hex");
let counter = 0;

/**
 * A fresh id for a call the agent makes itself (`callTool`): unique in this process by its
 * counter, across processes by a random prefix. A `randomUUID()` each time cost ~600 bytes of
 * garbage a call (Node builds its text from 20 small strings).
 */
export function newCallId(): string {
  counter += 1;
  return `call_${PROCESS_PREFIX}${counter.toString(36)}`;
}
