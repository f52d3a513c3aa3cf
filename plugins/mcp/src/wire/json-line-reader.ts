import type { JSONRPCMessage } from "@modelcontextprotocol/client";
import { type McpServerErrorCode, ToolSourceError } from "../mcp-errors.js";

/** Largest single message accepted from a stdio server (a big image result fits). */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/**
 * Splits a stdio server's output into JSON-RPC messages: one JSON object per line. Only
 * `JSON.parse` and an envelope check here - the SDK checks the shape of what it handles, and
 * our direct `tools/call` path checks its results itself - so no message is validated twice.
 * A line over the size cap is dropped with an error instead of growing memory without bound.
 */
export class JsonLineReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private skipping = false;

  constructor(private readonly maxBytes = MAX_MESSAGE_BYTES) {}

  /** Feed a chunk; returns the complete messages and the errors for bad lines, in order. */
  push(chunk: Buffer): Array<{ message: JSONRPCMessage } | { error: Error }> {
    const out: Array<{ message: JSONRPCMessage } | { error: Error }> = [];
    let start = 0;
    for (
      let newline = chunk.indexOf(10, start);
      newline !== -1;
      newline = chunk.indexOf(10, start)
    ) {
      const piece = chunk.subarray(start, newline);
      start = newline + 1;
      if (this.skipping) {
        this.skipping = false;
        this.reset();
        continue;
      }
      const line = this.buffered === 0 ? piece : Buffer.concat([...this.chunks, piece]);
      this.reset();
      const parsed = parseLine(line);
      if (parsed) out.push(parsed);
    }
    const rest = chunk.subarray(start);
    if (rest.length > 0 && !this.skipping) {
      this.chunks.push(rest);
      this.buffered += rest.length;
      if (this.buffered > this.maxBytes) {
        this.reset();
        this.skipping = true;
        out.push({
          error: new ToolSourceError<McpServerErrorCode>(
            "message_too_large",
            `A message from the server is larger than ${this.maxBytes} bytes; dropped.`,
          ),
        });
      }
    }
    return out;
  }

  private reset(): void {
    this.chunks = [];
    this.buffered = 0;
  }
}

function parseLine(line: Buffer): { message: JSONRPCMessage } | { error: Error } | undefined {
  // A CRLF line ends in \r: cut it from the bytes, not with a regular expression over the text.
  const end = line.length > 0 && line[line.length - 1] === 13 ? line.length - 1 : line.length;
  const text = line.toString("utf8", 0, end);
  // A blank line is skipped; a line's first byte tells most lines are not blank.
  if (!startsWithJson(line) && text.trim() === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // A stray console.log on stdout is reported, not fatal.
    return {
      error: new ToolSourceError<McpServerErrorCode>(
        "not_json",
        `Not JSON on the server's stdout: ${text.slice(0, 200)} (${(error as Error).message})`,
      ),
    };
  }
  if (!value || typeof value !== "object" || (value as { jsonrpc?: unknown }).jsonrpc !== "2.0") {
    return {
      error: new ToolSourceError<McpServerErrorCode>(
        "not_json_rpc",
        `Not a JSON-RPC 2.0 message on the server's stdout: ${text.slice(0, 200)}`,
      ),
    };
  }
  return { message: value as JSONRPCMessage };
}

/** `{`, the start of every JSON-RPC message: such a line is not blank. */
function startsWithJson(line: Buffer): boolean {
  return line.length > 0 && line[0] === 123;
}
