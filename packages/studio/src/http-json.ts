import type { IncomingMessage, ServerResponse } from "node:http";

/** A request the studio refuses: its HTTP status, a stable `code` and a sentence for people. */
export class StudioHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "StudioHttpError";
  }
}

/** Bodies are small JSON documents (a prompt, a tool's arguments): anything larger is refused. */
const MAX_BODY_BYTES = 1024 * 1024;

/** The request's JSON body as an object; `{}` when it has none. */
export async function readJsonBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES)
      throw new StudioHttpError(413, "body_too_large", "The request body is over 1 MiB.");
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString("utf8").trim();
  if (text === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new StudioHttpError(
      400,
      "invalid_json",
      `The request body is not JSON: ${(error as Error).message}`,
    );
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new StudioHttpError(400, "invalid_json", "The request body must be a JSON object.");
  return value as Record<string, unknown>;
}

/** Answer with JSON; nothing the studio sends is cached (it is all live state). */
export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = toJson(body);
  response.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "cache-control": "no-store",
  });
  response.end(text);
}

/** `{ error: { code, message } }`, the one error shape of the API. */
export function sendError(response: ServerResponse, error: unknown): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  if (error instanceof StudioHttpError) {
    sendJson(response, error.status, { error: { code: error.code, message: error.message } });
    return;
  }
  // Errors of the kernel carry a typed code (UsageError, ConfigError...): a caller's mistake.
  const code = (error as { code?: unknown }).code;
  const status = typeof code === "string" ? 400 : 500;
  sendJson(response, status, {
    error: {
      code: typeof code === "string" ? code : "internal_error",
      message: error instanceof Error ? error.message : String(error),
    },
  });
}

/** A string field of a body, or a 400 that names it. */
export function requireString(body: Record<string, unknown>, field: string): string {
  const value = body[field];
  if (typeof value !== "string" || value.trim() === "")
    throw new StudioHttpError(400, "invalid_request", `"${field}" must be a non-empty string.`);
  return value;
}

/** JSON of what the studio sends, bodies and feed events alike. */
export function toJson(value: unknown): string {
  return JSON.stringify(value, jsonReplacer);
}

/** Errors and bigints become JSON too (a tool's error result, token counts). */
function jsonReplacer(_key: string, value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message };
  if (typeof value === "bigint") return value.toString();
  return value;
}
