/** An extension's result, checked by the extension's code (the v2 client wants a schema). */
export const looseResult = {
  "~standard": {
    version: 1 as const,
    vendor: "pseudoclaude",
    validate: (value: unknown) => ({ value: value as Record<string, unknown> }),
  },
};
