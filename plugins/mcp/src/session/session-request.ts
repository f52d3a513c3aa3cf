import type { CallOptions } from "../mcp-session.js";
import { NO_SDK_TIMEOUT, withRequestSignal } from "./client-options.js";

/** What a session's SDK request runs with: its own signal, and no timeout of the SDK's own. */
export interface SessionRequestOptions {
  signal: AbortSignal;
  timeout: number;
}

type Recover<T> = (error: unknown, again: (() => Promise<T>) | undefined) => Promise<T>;

/**
 * One request of a session, in either era: run with its own signal (see withRequestSignal) and
 * NO_SDK_TIMEOUT, so only the caller's signal ends it. A failure goes to `recover`, which
 * throws what it means or tries once more through `again`; on that second try `again` is
 * undefined, so a second failure is the answer.
 */
export function sessionRequest<T>(
  signal: AbortSignal,
  run: (options: SessionRequestOptions) => Promise<T>,
  recover: Recover<T>,
): Promise<T> {
  return attempt(
    () =>
      withRequestSignal(signal, (requestSignal) =>
        run({ signal: requestSignal, timeout: NO_SDK_TIMEOUT }),
      ),
    recover,
  );
}

/**
 * A tool call's request. Where the call can be listened to (`onAbort`), one signal is made for
 * the request and aborted with the call, and the SDK is given it as it is: the call's own signal
 * is never made, and no second signal follows it (two signals and their listeners were ~12 µs
 * of a call's CPU). `recoveryFor` makes `recover` for the signal the request runs with.
 */
export async function callRequest<T>(
  cancel: Pick<CallOptions, "signal" | "onAbort">,
  run: (options: SessionRequestOptions) => Promise<T>,
  recoveryFor: (signal: AbortSignal) => Recover<T>,
): Promise<T> {
  if (!cancel.onAbort) return sessionRequest(cancel.signal, run, recoveryFor(cancel.signal));
  const controller = new AbortController();
  const hearing = cancel.onAbort((reason) => controller.abort(reason));
  try {
    const signal = controller.signal;
    return await attempt(() => run({ signal, timeout: NO_SDK_TIMEOUT }), recoveryFor(signal));
  } finally {
    hearing.dispose();
  }
}

async function attempt<T>(go: () => Promise<T>, recover: Recover<T>, retried = false): Promise<T> {
  try {
    return await go();
  } catch (error) {
    return recover(error, retried ? undefined : () => attempt(go, recover, true));
  }
}
