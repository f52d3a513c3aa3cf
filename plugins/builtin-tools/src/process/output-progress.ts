import type { ToolProgress } from "@pseudoclaude/core/plugin";

/** A command's progress is reported at most this often: a chatty build must not flood the UI. */
const MIN_INTERVAL_MS = 500;

/** Progress messages are one short line. */
const MAX_MESSAGE_CHARS = 160;

/**
 * Turns a running command's output into progress reports, so whoever watches the call (a chat)
 * sees the command move: `progress` counts the lines so far, `message` is the latest complete
 * non-empty line. Reports are spaced at least `MIN_INTERVAL_MS` apart and the first comes with
 * the first line, so a command that prints little shows each line and one that prints much
 * shows a sample; the full output is in the result either way.
 */
export function outputProgress(
  report: (progress: ToolProgress) => void,
  now: () => number = () => performance.now(),
): (text: string) => void {
  let lines = 0;
  let partial = "";
  let last = Number.NEGATIVE_INFINITY;
  return (text) => {
    const pieces = (partial + text).split(/\r?\n/);
    partial = pieces.pop() ?? "";
    // Bounded: a line without end (a progress bar redrawn with \r) must not grow forever.
    if (partial.length > MAX_MESSAGE_CHARS * 4) partial = partial.slice(-MAX_MESSAGE_CHARS * 4);
    lines += pieces.length;
    const latest = pieces.map((line) => line.trim()).findLast((line) => line !== "");
    if (latest === undefined || now() - last < MIN_INTERVAL_MS) return;
    last = now();
    report({ progress: lines, message: latest.slice(0, MAX_MESSAGE_CHARS) });
  };
}
