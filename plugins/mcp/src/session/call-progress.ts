import type { CallOptions } from "./mcp-session.js";

/** The SDK request option that hands a call's progress notifications to its listener, if any. */
export function progressOption(options: CallOptions) {
  const listener = options.onProgress;
  if (!listener) return {};
  return {
    onprogress: (progress: {
      progress: number;
      total?: number | undefined;
      message?: string | undefined;
    }) =>
      listener({
        progress: progress.progress,
        ...(progress.total !== undefined ? { total: progress.total } : {}),
        ...(progress.message !== undefined ? { message: progress.message } : {}),
      }),
  };
}
