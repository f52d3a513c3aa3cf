import { NO_SDK_TIMEOUT, withRequestSignal } from "./request-signal.js";

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
 * The same for a signal that already belongs to this one request (made for it, and dropped when
 * it ends): the SDK is given it as it is, without a second signal that follows it.
 */
export function ownSignalRequest<T>(
  signal: AbortSignal,
  run: (options: SessionRequestOptions) => Promise<T>,
  recover: Recover<T>,
): Promise<T> {
  return attempt(() => run({ signal, timeout: NO_SDK_TIMEOUT }), recover);
}

async function attempt<T>(go: () => Promise<T>, recover: Recover<T>, retried = false): Promise<T> {
  try {
    return await go();
  } catch (error) {
    return recover(error, retried ? undefined : () => attempt(go, recover, true));
  }
}
