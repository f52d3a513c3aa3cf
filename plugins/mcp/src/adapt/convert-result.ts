import { type ContentBlock, type ToolResult, toolFailure, toolSuccess } from "@pseudoclaude/core";
import { detachedSlice } from "@pseudoclaude/core/plugin";
import type { RemoteCallResult, RemoteContent } from "../mcp-session.js";
import type { McpToolErrorCode } from "./result-codes.js";

export interface ConvertOptions {
  server: string;
  remoteName: string;
  maxOutputChars: number;
}

/**
 * An MCP tools/call result as a ToolResult, losing nothing: every content kind and
 * `structuredContent` are kept (a model that cannot read a kind gets a placeholder later,
 * never silence); the server's `_meta` lives under `remote_meta`, so a server cannot
 * overwrite the local facts (`server`, `remote_tool` …) a person or a policy relies on; text
 * beyond `max_output_chars` is cut with a note.
 */
export function convertCallResult(result: RemoteCallResult, options: ConvertOptions): ToolResult {
  const unsupported: string[] = [];
  const content: ContentBlock[] = [];
  for (const block of result.content ?? []) {
    const converted = contentBlockOf(block);
    if (converted) content.push(converted);
    else {
      unsupported.push(String(block.type));
      content.push({
        type: "text",
        text: `[unsupported MCP content of type "${String(block.type)}" from server "${options.server}"]`,
      });
    }
  }
  const structured = result.structuredContent;
  // The spec asks servers to mirror structured output as text; when one does not, the model
  // still needs to see it.
  if (content.length === 0 && structured !== undefined) {
    content.push({ type: "text", text: JSON.stringify(structured) });
  }
  const truncation = truncateText(content, options.maxOutputChars);
  const metadata: Record<string, unknown> = {};
  if (result.meta && Object.keys(result.meta).length > 0) metadata.remote_meta = result.meta;
  if (unsupported.length > 0) metadata.unsupported_content = unsupported;
  if (truncation) Object.assign(metadata, truncation);
  // Local keys are written last so nothing from the server can replace them.
  metadata.server = options.server;
  metadata.remote_tool = options.remoteName;

  if (result.isError) {
    const text = content
      .filter((block): block is { type: "text"; text: string } => block.type === "text")
      .map((block) => block.text)
      .join("\n")
      .trim();
    return toolFailure(
      "mcp_tool_error" satisfies McpToolErrorCode,
      text || `MCP tool "${options.remoteName}" on server "${options.server}" returned an error.`,
      {
        content: content.length > 0 ? content : undefined,
        structured,
        metadata,
      },
    );
  }
  return toolSuccess(content, { structured, metadata });
}

/** An MCP content block as ours, or undefined when it is not one we know, well formed. */
export function contentBlockOf(block: RemoteContent): ContentBlock | undefined {
  switch (block.type) {
    case "text":
      return typeof block.text === "string" ? { type: "text", text: block.text } : undefined;
    case "image":
    case "audio":
      if (typeof block.data !== "string" || typeof block.mimeType !== "string") return undefined;
      return { type: block.type, data: block.data, mimeType: block.mimeType };
    case "resource_link": {
      if (typeof block.uri !== "string") return undefined;
      const link: ContentBlock = { type: "resource_link", uri: block.uri };
      for (const key of ["name", "title", "description", "mimeType"] as const) {
        if (typeof block[key] === "string") link[key] = block[key] as string;
      }
      if (typeof block.size === "number") link.size = block.size;
      return link;
    }
    case "resource": {
      const resource = block.resource as Record<string, unknown> | undefined;
      if (!resource || typeof resource.uri !== "string") return undefined;
      const out: { uri: string; mimeType?: string; text?: string; blob?: string } = {
        uri: resource.uri,
      };
      if (typeof resource.mimeType === "string") out.mimeType = resource.mimeType;
      if (typeof resource.text === "string") out.text = resource.text;
      if (typeof resource.blob === "string") out.blob = resource.blob;
      return { type: "resource", resource: out };
    }
    default:
      return undefined;
  }
}

/** Cut text (and text resources) to the budget; binary blocks are left whole. */
function truncateText(
  content: ContentBlock[],
  budget: number,
): Record<string, unknown> | undefined {
  let total = 0;
  for (const block of content) total += textLength(block);
  if (total <= budget) return undefined;
  let remaining = budget;
  for (const block of content) {
    if (block.type === "text") {
      block.text = detachedSlice(block.text, 0, Math.max(0, remaining));
      remaining -= block.text.length;
    } else if (block.type === "resource" && block.resource.text !== undefined) {
      block.resource.text = detachedSlice(block.resource.text, 0, Math.max(0, remaining));
      remaining -= block.resource.text.length;
    }
  }
  content.push({
    type: "text",
    text: `[output truncated: showing ${budget} of ${total} characters (max_output_chars)]`,
  });
  return { truncated: true, original_chars: total, max_output_chars: budget };
}

function textLength(block: ContentBlock): number {
  if (block.type === "text") return block.text.length;
  if (block.type === "resource") return block.resource.text?.length ?? 0;
  return 0;
}
