/**
 * Content blocks a tool result can carry. The kinds mirror MCP's so nothing is lost on the
 * way in; a provider that cannot send a kind to its model turns it into an explicit
 * placeholder (see `describeContentBlock`), never drops it silently.
 */
export interface TextContent {
  type: "text";
  text: string;
}

export interface ImageContent {
  type: "image";
  /** Base64 data. */
  data: string;
  mimeType: string;
}

export interface AudioContent {
  type: "audio";
  /** Base64 data. */
  data: string;
  mimeType: string;
}

/** A pointer to a resource the tool did not inline. */
export interface ResourceLinkContent {
  type: "resource_link";
  uri: string;
  name?: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
}

/** A resource inlined into the result, as text or base64 blob. */
export interface EmbeddedResourceContent {
  type: "resource";
  resource: { uri: string; mimeType?: string; text?: string; blob?: string };
}

export type ContentBlock =
  | TextContent
  | ImageContent
  | AudioContent
  | ResourceLinkContent
  | EmbeddedResourceContent;

export type ContentKind = ContentBlock["type"];

/** Text for a block a consumer cannot take as-is, saying exactly what was there. */
export function describeContentBlock(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
    case "audio":
      return `[${block.type} content: ${block.mimeType}, ${approximateBytes(block.data)} bytes, not shown to this model]`;
    case "resource_link":
      return `[resource link: ${block.uri}${block.name ? ` (${block.name})` : ""}${block.mimeType ? `, ${block.mimeType}` : ""}]`;
    case "resource":
      if (block.resource.text !== undefined) return block.resource.text;
      return `[embedded resource: ${block.resource.uri}${block.resource.mimeType ? `, ${block.resource.mimeType}` : ""}, ${approximateBytes(block.resource.blob ?? "")} bytes of binary data, not shown to this model]`;
  }
}

function approximateBytes(base64: string): number {
  const padding = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((base64.length * 3) / 4) - padding);
}

/** Concatenated text of every text block (and text resources), for logs and simple callers. */
export function textOf(content: readonly ContentBlock[]): string {
  const parts: string[] = [];
  for (const block of content) {
    if (block.type === "text") parts.push(block.text);
    else if (block.type === "resource" && block.resource.text !== undefined)
      parts.push(block.resource.text);
  }
  return parts.join("\n");
}
