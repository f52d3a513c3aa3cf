/**
 * The SDK's own per-request timeout (60 s default) cannot be switched off and \`Infinity\`
 * overflows to 1 ms, so every request gets the largest timer value and the registry's single
 * timeout rules through the AbortSignal instead.
 */
export const NO_SDK_TIMEOUT = 2_147_483_647;

/**
 * Each SDK request runs with a signal that follows the outer one only while it runs. The SDK
 * never removes its abort listener, so a long-lived signal (the connect budget, a shared call
 * signal) aborting later would send notifications/cancelled for requests that already finished
 * - including `initialize`, which clients must never cancel.
 */
export { withRequestSignal } from "@pseudoclaude/core/plugin";
