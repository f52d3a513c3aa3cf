import { createPathGuard, openConfined, type PathGuard } from "@pseudoclaude/core/files";
import picomatch from "picomatch";
import { BinaryFileError } from "../files/binary-file.js";
import { readLines, type TextLine } from "../text/line-reader.js";
import { walkTree } from "../walk/walk-tree.js";
import {
  type GrepOutcome,
  type GrepRequest,
  JUDGED_FILES_PER_MESSAGE,
  type JudgeFiles,
} from "./grep-request.js";

/** Lines are searched up to this many characters; the rest of a longer line is skipped. */
export const SEARCH_LINE_CHARS = 1_000_000;
/** A line shown in the results is cut to about this many characters around the match. */
export const SHOWN_LINE_CHARS = 400;

class StopSearch extends Error {}

/**
 * A streaming grep: walks the target (honouring `.gitignore`), reads each text file line by
 * line in bounded memory, skips binary files, and stops at the match limit or the output
 * cap. Runs in a worker thread in production so a runaway regex can be terminated.
 */
export async function searchFiles(
  request: GrepRequest,
  signal?: AbortSignal,
  /** Path rules for each file; required when `request.judgeFiles` is set. */
  judge?: JudgeFiles,
): Promise<GrepOutcome> {
  const guard = createPathGuard(request.workspace, request.extraRoots);
  const search = new Search(request, guard);
  let pending: string[] = [];
  // Files are judged in batches, so the path rules cost one round trip per batch, not per file.
  const flush = async () => {
    const batch = pending;
    pending = [];
    const withheld =
      request.judgeFiles && judge
        ? await judge(batch.map((file) => guard.display(file)))
        : undefined;
    for (const file of batch) {
      if (withheld?.has(guard.display(file))) search.outcome.withheld += 1;
      else await search.file(file);
    }
  };
  try {
    if (request.targetIsFile) {
      pending.push(request.target);
      await flush();
    } else {
      const filter = request.glob
        ? picomatch(request.glob, { dot: true, basename: !request.glob.includes("/") })
        : undefined;
      const walk = walkTree({
        start: request.target,
        root: request.root,
        respectGitignore: request.respectGitignore,
        guard,
        ...(signal ? { signal } : {}),
      });
      for await (const entry of walk) {
        // Links are not followed (as ripgrep): the real file is searched where it lives.
        if (entry.kind !== "file") continue;
        if (filter && !filter(entry.relative)) continue;
        pending.push(entry.absolute);
        if (pending.length >= JUDGED_FILES_PER_MESSAGE) await flush();
      }
      await flush();
    }
  } catch (error) {
    if (!(error instanceof StopSearch)) throw error;
  }
  return search.outcome;
}

class Search {
  readonly outcome: GrepOutcome = {
    lines: [],
    matches: 0,
    filesWithMatches: 0,
    filesSearched: 0,
    binarySkipped: 0,
    unreadable: 0,
    withheld: 0,
    limitReached: false,
    outputCapped: false,
  };
  private readonly regex: RegExp;
  private chars = 0;

  constructor(
    private readonly request: GrepRequest,
    private readonly guard: PathGuard,
  ) {
    this.regex = new RegExp(request.pattern, request.caseInsensitive ? "i" : "");
  }

  async file(absolute: string): Promise<void> {
    const shown = this.guard.display(absolute);
    this.outcome.filesSearched += 1;
    try {
      // Opened through a verified descriptor: a folder swapped for a link meanwhile is refused.
      const handle = await openConfined(this.guard, absolute, shown);
      const lines = readLines(handle, { maxLineChars: SEARCH_LINE_CHARS, rejectBinary: true });
      if (this.request.mode === "content") await this.content(shown, lines);
      else await this.perFile(shown, lines);
    } catch (error) {
      if (error instanceof StopSearch) throw error;
      if (error instanceof BinaryFileError) this.outcome.binarySkipped += 1;
      else this.outcome.unreadable += 1;
    }
  }

  private async content(shown: string, lines: AsyncGenerator<TextLine>): Promise<void> {
    const context = this.request.contextLines;
    const before: TextLine[] = [];
    let lastShown = 0;
    let afterLeft = 0;
    let stopping = false;
    for await (const line of lines) {
      const matched = this.regex.test(line.text);
      if (matched && !stopping) {
        const first = before[0]?.number ?? line.number;
        if (
          context > 0 &&
          this.outcome.lines.length > 0 &&
          (lastShown === 0 || first > lastShown + 1)
        ) {
          this.emit("--");
        }
        for (const previous of before)
          this.emit(`${shown}-${previous.number}-${this.show(previous)}`);
        before.length = 0;
        if (lastShown === 0) this.outcome.filesWithMatches += 1;
        this.emit(`${shown}:${line.number}:${this.show(line)}`);
        this.outcome.matches += 1;
        lastShown = line.number;
        afterLeft = context;
        if (this.outcome.matches >= this.request.limit) {
          this.outcome.limitReached = true;
          stopping = true;
          if (afterLeft === 0) break;
        }
      } else if (afterLeft > 0) {
        this.emit(
          `${shown}${matched ? ":" : "-"}${line.number}${matched ? ":" : "-"}${this.show(line)}`,
        );
        lastShown = line.number;
        afterLeft -= 1;
        if (stopping && afterLeft === 0) break;
      } else if (context > 0) {
        before.push(line);
        if (before.length > context) before.shift();
      }
    }
    if (stopping) throw new StopSearch();
  }

  private async perFile(shown: string, lines: AsyncGenerator<TextLine>): Promise<void> {
    let count = 0;
    for await (const line of lines) {
      if (!this.regex.test(line.text)) continue;
      count += 1;
      if (this.request.mode === "files_with_matches") break;
    }
    if (count === 0) return;
    this.outcome.matches += count;
    this.outcome.filesWithMatches += 1;
    this.emit(this.request.mode === "count" ? `${shown}:${count}` : shown);
    if (this.outcome.filesWithMatches >= this.request.limit) {
      this.outcome.limitReached = true;
      throw new StopSearch();
    }
  }

  private emit(text: string): void {
    if (this.chars + text.length + 1 > this.request.maxOutputChars) {
      this.outcome.outputCapped = true;
      throw new StopSearch();
    }
    this.chars += text.length + 1;
    this.outcome.lines.push(text);
  }

  /** A long line is shown as a window around its first match. */
  private show(line: TextLine): string {
    const { text } = line;
    if (text.length <= SHOWN_LINE_CHARS && !line.cut) return text;
    const at = Math.max(0, text.search(this.regex));
    const start = Math.max(0, at - Math.floor(SHOWN_LINE_CHARS / 4));
    const end = Math.min(text.length, start + SHOWN_LINE_CHARS);
    return `${start > 0 ? "…" : ""}${text.slice(start, end)}${end < text.length || line.cut ? `… [line of ${line.bytes} bytes cut]` : ""}`;
  }
}
