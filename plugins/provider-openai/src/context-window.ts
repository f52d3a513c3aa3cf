import { resolveContextWindow } from "@pseudoclaude/core/provider";

/**
 * Context windows of OpenAI model families, by name prefix, longest prefix first. A model not
 * listed (a compatible server's) has no known window unless configured: the agent then does
 * not compact on its own.
 */
const WINDOWS: ReadonlyArray<[prefix: string, tokens: number]> = [
  ["gpt-5", 400_000],
  ["gpt-4.1", 1_047_576],
  ["gpt-4o", 128_000],
  ["o4", 200_000],
  ["o3", 200_000],
  ["o1", 200_000],
];

/** The window of `model`: the configured one wins, then the family's. */
export function openaiContextWindow(
  model: string,
  configured: number | undefined,
): number | undefined {
  return resolveContextWindow(
    "openai",
    configured,
    WINDOWS.find(([prefix]) => model.startsWith(prefix))?.[1],
  );
}
