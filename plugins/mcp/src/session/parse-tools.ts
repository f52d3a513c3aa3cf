import { type Tool, ToolSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

export const lenientToolsPage = z.looseObject({
  tools: z.array(z.unknown()),
  nextCursor: z.string().optional(),
});

/**
 * Check each listed tool on its own. An empty `inputSchema` (`{}` or missing) is repaired to
 * `{ "type": "object" }` as the seed did; anything else invalid is skipped with its reason.
 */
export function parseTools(entries: unknown[]): {
  tools: Tool[];
  invalid: Array<{ name?: string; message: string }>;
} {
  const tools: Tool[] = [];
  const invalid: Array<{ name?: string; message: string }> = [];
  for (const entry of entries) {
    let candidate = entry;
    if (candidate && typeof candidate === "object") {
      const schema = (candidate as { inputSchema?: unknown }).inputSchema;
      if (
        schema === undefined ||
        (schema && typeof schema === "object" && Object.keys(schema).length === 0)
      ) {
        candidate = { ...candidate, inputSchema: { type: "object" } };
      }
    }
    const parsed = ToolSchema.safeParse(candidate);
    if (parsed.success) {
      tools.push(parsed.data);
      continue;
    }
    const name = (entry as { name?: unknown } | null)?.name;
    const issue = parsed.error.issues[0];
    invalid.push({
      ...(typeof name === "string" ? { name } : {}),
      message: issue
        ? `${issue.path.join(".") || "(tool)"}: ${issue.message}`
        : "invalid tool definition",
    });
  }
  return { tools, invalid };
}
