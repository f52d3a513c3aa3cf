import { createReadStream } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { BinaryFileError, looksBinary } from "../files/binary-file.js";

/** One line of a text file, without its line ending. */
export interface TextLine {
  /** 1-based. */
  number: number;
  /** The line, cut at the reader's `maxLineChars`. */
  text: string;
  /** Whether `text` is shorter than the line on disk. */
  cut: boolean;
  /** Length of the whole line in bytes. */
  bytes: number;
}

export interface ReadLinesOptions {
  /** Longest line kept in memory; the rest of a longer line is skipped, never buffered. */
  maxLineChars: number;
  /** Refuse (throw {@link BinaryFileError}) when the first chunk looks binary. */
  rejectBinary?: boolean;
  signal?: AbortSignal;
}

const NEWLINE = 0x0a;
const CHUNK_BYTES = 64 * 1024;

/**
 * Stream a file line by line in bounded memory: a file of any size, even one long line, costs
 * at most a chunk plus `maxLineChars`. Stopping the loop early closes the file.
 */
export async function* readLines(
  /** A path, or a file opened already (closed when the lines end or the loop stops). */
  file: string | FileHandle,
  options: ReadLinesOptions,
): AsyncGenerator<TextLine> {
  // UTF-8 needs at most 4 bytes a character, so this many bytes always hold maxLineChars.
  const keepBytes = options.maxLineChars * 4;
  const stream =
    typeof file === "string"
      ? createReadStream(file, { highWaterMark: CHUNK_BYTES, signal: options.signal })
      : file.createReadStream({ highWaterMark: CHUNK_BYTES, signal: options.signal });
  let parts: Buffer[] = [];
  let kept = 0;
  let lineBytes = 0;
  let number = 0;
  let first = true;
  const finish = (): TextLine => {
    number += 1;
    let text = Buffer.concat(parts, kept).toString("utf8");
    if (text.endsWith("\r") && kept === lineBytes) text = text.slice(0, -1);
    const cut = kept < lineBytes || text.length > options.maxLineChars;
    if (text.length > options.maxLineChars) text = text.slice(0, options.maxLineChars);
    const line = { number, text, cut, bytes: lineBytes };
    parts = [];
    kept = 0;
    lineBytes = 0;
    return line;
  };
  const keep = (piece: Buffer) => {
    lineBytes += piece.length;
    const room = keepBytes - kept;
    if (room <= 0) return;
    const taken = piece.length > room ? piece.subarray(0, room) : piece;
    parts.push(taken);
    kept += taken.length;
  };
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    if (first) {
      first = false;
      if (options.rejectBinary && looksBinary(chunk))
        throw new BinaryFileError(typeof file === "string" ? file : "the file");
    }
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(NEWLINE, start);
      if (end === -1) break;
      keep(chunk.subarray(start, end));
      yield finish();
      start = end + 1;
    }
    if (start < chunk.length) keep(chunk.subarray(start));
  }
  if (lineBytes > 0) yield finish();
}
