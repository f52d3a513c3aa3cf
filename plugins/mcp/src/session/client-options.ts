import type { StandardSchemaV1 } from "@modelcontextprotocol/client";
// What every use of the v2 client is given: no validator of its own, a schema that takes any
// result, and no timeout of its own (the kernel's one timeout rules).

/**
 * The SDK clients' structured-output validator, switched off: each would check only what it
 * knows (the 1.x client the tools of its own last listing, the v2 client compiles a schema per
 * call when handed a tool) and throw a protocol error. The tool adapter checks every result
 * against its tool's outputSchema with the kernel's compiler, and says so as
 * `mcp_output_invalid` (adapt/adapt-tool.ts).
 */
export const noSdkValidation = {
  getValidator: () => (input: unknown) => ({
    valid: true as const,
    // A validator that lets everything through claims the type it is asked for.
    data: input as never,
    errorMessage: undefined,
  }),
};

/** An extension's result, checked by the extension's code (the v2 client wants a schema). */
export const looseResult = {
  "~standard": {
    version: 1 as const,
    vendor: "pseudoclaude",
    validate: (value: unknown) => ({ value: value as Record<string, unknown> }),
  },
};

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

/** `value` as `schema` has it, or an error that says where it is not (`what` names the value). */
export function checkedAs<T>(
  schema: StandardSchemaV1<unknown, T>,
  value: unknown,
  what: string,
): T {
  const result = schema["~standard"].validate(value);
  if (result instanceof Promise) throw new Error(`${what}: its schema is not synchronous`);
  if (!result.issues) return result.value;
  const issue = result.issues[0];
  const where = issue?.path
    ?.map((key) => String(typeof key === "object" ? key.key : key))
    .join(".");
  throw new Error(
    `${what} is malformed${where ? ` at ${where}` : ""}: ${issue?.message ?? "invalid"}`,
  );
}
