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
    data: input as never,
    errorMessage: undefined,
  }),
};
