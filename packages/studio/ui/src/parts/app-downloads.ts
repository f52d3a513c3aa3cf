import type { McpUiDownloadFileRequest } from "@modelcontextprotocol/ext-apps/app-bridge";

/**
 * `ui/download-file`: what a view asks the person to save. Embedded resources carry their bytes;
 * a link to one of the view's own server's resources is read from that server (through the
 * studio, as the view's reads are); an http(s) link is left to the browser in a new tab, where
 * its own download handling applies. The person sees every file's name, type and size (or
 * the URL) before anything is saved.
 */

/** One file as the view's request describes it. */
export interface AskedFile {
  /** What the person is shown and the file is saved as (already made safe). */
  name: string;
  mimeType: string;
  /** The bytes, when the request carried them or the view's server was read for them. */
  bytes?: Uint8Array<ArrayBuffer>;
  /** An http(s) address the browser fetches itself. */
  url?: string;
}

/** A resource as MCP carries it: text or base64 `blob`. */
interface ResourceContents {
  uri: string;
  mimeType?: string | undefined;
  text?: string | undefined;
  blob?: string | undefined;
}

/** A `ui/download-file` content item (EmbeddedResource or ResourceLink), as the library types it. */
type DownloadItem = McpUiDownloadFileRequest["params"]["contents"][number];

/** The longest name a saved file gets. */
const MAX_NAME = 120;

/**
 * The files a request asks for, in order; `read` reads one of the view's server's resources.
 * Throws with the reason when an item can be neither carried nor read.
 */
export async function askedFiles(
  contents: readonly DownloadItem[],
  read: (uri: string) => Promise<ResourceContents[]>,
): Promise<AskedFile[]> {
  const files: AskedFile[] = [];
  for (const item of contents) {
    if (item.type === "resource") {
      files.push(carried(item.resource));
      continue;
    }
    if (/^https?:\/\//i.test(item.uri)) {
      files.push({
        name: safeFileName(item.name ?? lastSegment(item.uri)),
        mimeType: item.mimeType ?? "",
        url: item.uri,
      });
      continue;
    }
    const [first] = await read(item.uri);
    if (!first) throw new Error(`${item.uri} has no contents`);
    const file = carried(first);
    files.push(item.name ? { ...file, name: safeFileName(item.name) } : file);
  }
  return files;
}

/** What the person is asked to agree to, one line a file. */
export function describeFiles(files: readonly AskedFile[]): string {
  return files
    .map((file) =>
      file.url
        ? `${file.name}: opened from ${file.url}`
        : `${file.name} (${file.mimeType || "no type"}, ${file.bytes?.length ?? 0} bytes)`,
    )
    .join("\n");
}

/** Save one file through the browser's own download (or open its address in a new tab). */
export function saveFile(file: AskedFile): void {
  const link = document.createElement("a");
  link.rel = "noopener noreferrer";
  if (file.url) {
    link.href = file.url;
    link.target = "_blank";
  } else {
    const blob = new Blob([file.bytes ?? new Uint8Array(0)], {
      type: file.mimeType || "application/octet-stream",
    });
    link.href = URL.createObjectURL(blob);
    link.download = file.name;
  }
  document.body.append(link);
  link.click();
  link.remove();
  if (!file.url) setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}

/**
 * A name a view cannot use to reach outside the download folder or hide what a file is:
 * the last path segment, no control characters, separators or leading dots, at most 120
 * characters, "download" when nothing is left.
 */
export function safeFileName(asked: string): string {
  const cleaned = lastSegment(asked)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
    .replace(/[\u0000-\u001f\u007f<>:"|?*\\/]/g, "_")
    .replace(/^[.\s]+/, "")
    .trim()
    .slice(0, MAX_NAME);
  return cleaned === "" ? "download" : cleaned;
}

function carried(resource: ResourceContents): AskedFile {
  const name = safeFileName(lastSegment(resource.uri));
  const mimeType = resource.mimeType ?? "";
  if (typeof resource.text === "string")
    return { name, mimeType, bytes: new TextEncoder().encode(resource.text) };
  if (typeof resource.blob === "string") {
    const binary = atob(resource.blob);
    return { name, mimeType, bytes: Uint8Array.from(binary, (char) => char.charCodeAt(0)) };
  }
  throw new Error(`${resource.uri} carries neither text nor blob`);
}

function lastSegment(uri: string): string {
  let path = uri;
  try {
    path = decodeURIComponent(new URL(uri).pathname);
  } catch {
    // Not a URL: a bare name.
  }
  return path.split(/[\\/]/).filter(Boolean).at(-1) ?? "";
}
