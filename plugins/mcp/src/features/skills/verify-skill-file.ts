import { createHash } from "node:crypto";
import { ToolSourceError } from "@pseudoclaude/core";
import { isErrorOf } from "@pseudoclaude/core/plugin";
import type { McpSkillResource } from "./skill-entry.js";

/** Why a skill's file was not used. */
export type McpSkillErrorCode = "skill_file_unlisted" | "skill_file_mismatch" | "skill_file_unread";

/** A skill file of an MCP server that could not be used; the message says what and why. */
export class McpSkillError extends ToolSourceError<McpSkillErrorCode> {
  /** True for an McpSkillError from any copy of this module; `code` is typed. */
  static override is(value: unknown): value is McpSkillError {
    return isErrorOf(value, "tool", "McpSkillError");
  }
}

/**
 * The bytes a `resources/read` returned for `file`, checked against the listing before anything
 * reads them: first the length (a read of another size fails whether or not its digest would),
 * then the SHA-256 digest. `where` names the server and skill for the message.
 */
export function verifySkillFile(
  contents: ReadonlyArray<Record<string, unknown>>,
  file: McpSkillResource,
  where: string,
): string {
  const content = contents.find((item) => item.uri === file.uri) ?? contents[0];
  const bytes =
    typeof content?.text === "string"
      ? Buffer.from(content.text, "utf8")
      : typeof content?.blob === "string"
        ? Buffer.from(content.blob, "base64")
        : undefined;
  if (!bytes)
    throw new McpSkillError(
      "skill_file_unread",
      `${where}: ${file.uri} came back with no text or blob content; it is not used.`,
      { details: { uri: file.uri } },
    );
  if (bytes.length !== file.size)
    throw new McpSkillError(
      "skill_file_mismatch",
      `${where}: ${file.uri} is ${bytes.length} bytes, but the server's listing says ${file.size}; the content is not used (it changed since the listing, or was tampered with).`,
      { details: { uri: file.uri, expected: { size: file.size }, got: { size: bytes.length } } },
    );
  const digest = `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
  if (digest !== file.digest)
    throw new McpSkillError(
      "skill_file_mismatch",
      `${where}: ${file.uri} has digest ${digest}, but the server's listing says ${file.digest}; the content is not used (it changed since the listing, or was tampered with).`,
      { details: { uri: file.uri, expected: { digest: file.digest }, got: { digest } } },
    );
  return bytes.toString("utf8");
}
