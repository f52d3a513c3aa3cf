import type { ToolIcon } from "@pseudoclaude/core";

/** At most this many icons a tool, and this long a `src` (a data URI of a small image). */
const MAX_ICONS = 8;
const MAX_SRC_CHARS = 64 * 1024;

/** An image data URI; `image/svg+xml` too (a UI shows it as an image, never inline markup). */
const DATA_IMAGE = /^data:image\/[a-z0-9.+-]+(;[a-z0-9=.+-]+)*,/i;

/**
 * A server's tool icons as a UI may use them: only `https:` URLs and `data:image/…` URIs (a
 * `javascript:`, `file:` or plain `http:` source from a hostile server never reaches a page),
 * bounded in number and size, with only the fields MCP defines and of their types.
 */
export function toolIcons(raw: unknown): ToolIcon[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  const icons: ToolIcon[] = [];
  for (const entry of raw) {
    if (icons.length >= MAX_ICONS) break;
    const { src, mimeType, sizes, theme } = (entry ?? {}) as Record<string, unknown>;
    if (typeof src !== "string" || src.length > MAX_SRC_CHARS) continue;
    if (!DATA_IMAGE.test(src) && !isHttps(src)) continue;
    const icon: ToolIcon = { src };
    if (typeof mimeType === "string" && mimeType.startsWith("image/")) icon.mimeType = mimeType;
    if (Array.isArray(sizes) && sizes.every((size) => typeof size === "string"))
      icon.sizes = sizes.slice(0, 8) as string[];
    if (theme === "light" || theme === "dark") icon.theme = theme;
    icons.push(icon);
  }
  return icons.length > 0 ? icons : undefined;
}

function isHttps(src: string): boolean {
  try {
    return new URL(src).protocol === "https:";
  } catch {
    return false;
  }
}
