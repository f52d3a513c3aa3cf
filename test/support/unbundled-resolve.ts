// Module resolution hook (registered by package-test-modules.ts): packages resolve through the
// `pseudoclaude-unbundled` export condition, before `default`.
type Resolve = (specifier: string, context: { conditions: string[] }) => Promise<{ url: string }>;

export async function resolve(
  specifier: string,
  context: { conditions: string[] },
  next: Resolve,
): Promise<{ url: string }> {
  return next(specifier, {
    ...context,
    conditions: [...context.conditions, "pseudoclaude-unbundled"],
  });
}
