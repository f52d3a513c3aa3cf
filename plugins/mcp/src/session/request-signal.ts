/**
 * The SDK's own per-request timeout (60 s default) cannot be switched off and \`Infinity\`
 * overflows to 1 ms, so every request gets the largest timer value and the registry's single
 * timeout rules through the AbortSignal instead.
 */
export const NO_SDK_TIMEOUT = 2_147_483_647;

/**
 * Run one SDK request with a signal that follows `outer` only while the request runs. The SDK
 * never removes its abort listener, so a long-lived signal (the connect budget, a shared call
 * signal) aborting later would send notifications/cancelled for requests that already finished
 * - including `initialize`, which clients must never cancel.
 */
export async function withRequestSignal<T>(
  outer: AbortSignal,
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const forward = () => controller.abort(outer.reason);
  if (outer.aborted) forward();
  else outer.addEventListener("abort", forward, { once: true });
  try {
    return await run(controller.signal);
  } finally {
    outer.removeEventListener("abort", forward);
  }
}
