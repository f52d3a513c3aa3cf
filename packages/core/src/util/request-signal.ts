/**
 * A signal for one request that follows a longer-lived one (a run's, a session's) only while
 * the request runs. SDKs add an abort listener to the signal they are given and never remove
 * it: given the run's signal directly, a run of many requests piles up one listener per
 * request (Node warns at 11) and keeps every finished request reachable. Given this signal,
 * the SDK's listener goes away with the request, and the one listener on the outer signal is
 * removed by `dispose`.
 */
export interface RequestSignal {
  /** The request's own signal; undefined when there is no outer signal to follow. */
  readonly signal: AbortSignal | undefined;
  /** Stop following the outer signal (call it when the request ends, however it ends). */
  dispose(): void;
}

/** A {@link RequestSignal} that follows `outer` (already aborted: aborted at once). */
export function requestSignal(outer: AbortSignal | undefined): RequestSignal {
  if (!outer) return { signal: undefined, dispose: () => {} };
  const controller = new AbortController();
  const forward = () => controller.abort(outer.reason);
  if (outer.aborted) forward();
  else outer.addEventListener("abort", forward, { once: true });
  return {
    signal: controller.signal,
    dispose: () => outer.removeEventListener("abort", forward),
  };
}

/** Run one request with a {@link RequestSignal} of `outer`, disposed when it settles. */
export async function withRequestSignal<T>(
  outer: AbortSignal,
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const scope = requestSignal(outer);
  try {
    return await run(scope.signal as AbortSignal);
  } finally {
    scope.dispose();
  }
}
