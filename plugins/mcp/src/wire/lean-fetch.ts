import type { FetchLike } from "@modelcontextprotocol/client";

/** A request's own controller, weakly held so a finished request's is collected with it. */
type Live = Set<WeakRef<AbortController>>;

/**
 * The fetch an HTTP transport of the SDK is given: each request gets its own AbortSignal,
 * aborted when the transport's is. Behaviour is the SDK's own; what changes is the CPU a
 * request costs.
 *
 * Why: the SDK passes one long-lived signal (its transport's, aborted on close) to every
 * fetch, and undici adds an abort listener to it per request that goes only when the Request is
 * garbage-collected. Under load thousands pile up on that one signal: each new one costs a scan
 * of all of them, and past 1,500 a MaxListenersExceededWarning is printed per request (measured
 * at 32 calls in flight: ~160 µs of CPU per call, and a screen of warnings).
 *
 * Here the transport's signal gets one listener, which aborts every live request's controller.
 * A controller stays alive while its request waits for headers (the pending call holds it) and
 * then while its response body does (a WeakMap keyed by the body), so closing the transport
 * still ends a pending request or a response still streaming; once a response is dropped its
 * controller is collected and the weak reference to it is pruned.
 *
 * Not done, though it would save ~40 µs more: sending with `redirect: "error"` (undici then
 * skips copying the request). With that mode undici lets its Request be collected while the
 * body streams, and aborting the signal no longer ends the stream (tried on Node 20.20).
 */
export function leanFetch(inner: FetchLike): FetchLike {
  const lives = new WeakMap<AbortSignal, Live>();
  const bodies = new WeakMap<object, AbortController>();
  let pruneAt = 64;

  const liveFor = (outer: AbortSignal): Live => {
    let live = lives.get(outer);
    if (!live) {
      const created: Live = new Set();
      outer.addEventListener(
        "abort",
        () => {
          for (const ref of created) ref.deref()?.abort(outer.reason);
          created.clear();
        },
        { once: true },
      );
      lives.set(outer, created);
      live = created;
    }
    return live;
  };

  return async (url, init) => {
    const outer = init?.signal;
    // Nothing to scope, or already aborted: fetch rejects at once as it would have.
    if (!outer || outer.aborted) return inner(url, init);
    const live = liveFor(outer);
    if (live.size >= pruneAt) {
      for (const ref of live) if (ref.deref() === undefined) live.delete(ref);
      pruneAt = Math.max(64, live.size * 2);
    }
    const controller = new AbortController();
    const ref = new WeakRef(controller);
    live.add(ref);
    let response: Response;
    try {
      response = await inner(url, { ...init, signal: controller.signal });
    } catch (error) {
      live.delete(ref);
      throw error;
    }
    if (response.body) bodies.set(response.body, controller);
    else live.delete(ref);
    return response;
  };
}
