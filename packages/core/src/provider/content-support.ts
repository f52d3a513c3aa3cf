import { type ContentBlock, type ContentKind, describeContentBlock } from "../contracts/content.js";
import type { ToolResult } from "../contracts/tool-result.js";

/**
 * A result as a model that takes only some content kinds will see it: every other block
 * becomes an explicit text placeholder saying what was there, and the count per kind goes to
 * `metadata.content_placeholders`. Nothing is dropped silently: a model told "an image was
 * here" can say so or ask for it another way, one that never learns of it cannot.
 */
export function adaptResultContent(
  result: ToolResult,
  accepted: readonly ContentKind[] | undefined,
  accepts?: (block: ContentBlock) => boolean,
): ToolResult {
  if (!accepted && !accepts) return result;
  const placeholders: Partial<Record<ContentKind, number>> = {};
  let changed = false;
  const content: ContentBlock[] = result.content.map((block) => {
    if ((!accepted || isAccepted(block, accepted)) && (accepts?.(block) ?? true)) return block;
    changed = true;
    placeholders[block.type] = (placeholders[block.type] ?? 0) + 1;
    return { type: "text", text: describeContentBlock(block) };
  });
  if (!changed) return result;
  return {
    ...result,
    content,
    metadata: { ...result.metadata, content_placeholders: placeholders },
  };
}

function isAccepted(block: ContentBlock, accepted: readonly ContentKind[]): boolean {
  if (accepted.includes(block.type)) return true;
  // A text resource is text to any model that reads text.
  return (
    block.type === "resource" && block.resource.text !== undefined && accepted.includes("text")
  );
}
