import { createRequire } from "node:module";
import type * as OtelApi from "@opentelemetry/api";

const require = createRequire(import.meta.url);
let api: typeof OtelApi | undefined;

/**
 * The OpenTelemetry API, loaded on first use. An agent that never traces never loads it (about
 * a fifth of the kernel's import time); it is CommonJS, so it loads synchronously when a
 * tracer provider turns up.
 */
export function otelApi(): typeof OtelApi {
  api ??= require("@opentelemetry/api") as typeof OtelApi;
  return api;
}

/**
 * Where the OpenTelemetry API (1.x) keeps what was registered globally. Reading it tells
 * whether a tracer provider is registered without loading the API.
 */
const GLOBAL_SLOT = Symbol.for("opentelemetry.js.api.1");

/** Whether any copy of the 1.x API has registered a global tracer provider. */
export function globalTracerRegistered(): boolean {
  const slot = (globalThis as Record<symbol, { trace?: unknown } | undefined>)[GLOBAL_SLOT];
  return slot?.trace !== undefined;
}
