import { NO_SDK_TIMEOUT, withRequestSignal } from "./request-signal.js";

/** What a session's SDK request runs with: its own signal, and no timeout of the SDK's own. */
export interface SessionRequestOptions {
  signal: AbortSignal;
  timeout: number;
}

/**
 * One request of a session, in either era: run with its own signal (see withRequestSignal) and
 * NO_SDK_TIMEOUT, so only the caller's signal ends it. A failure goes to `recover`, which
 * throws what it means or tries once more through `again`; on that second try `again` is
 * undefined, so a second failure is the answer.
 */
export async function sessionRequest<T>(
  signal: AbortSignal,
  run: (options: SessionRequestOptions) => Promise<T>,
  recover: (error: unknown, again: (() => Promise<T>) | undefined) => Promise<T>,
  retried = false,
): Promise<T> {
  try {
    return await withRequestSignal(signal, (requestSignal) =>
      run({ signal: requestSignal, timeout: NO_SDK_TIMEOUT }),
    );
  } catch (error) {
    return recover(error, retried ? undefined : () => sessionRequest(signal, run, recover, true));
  }
}
