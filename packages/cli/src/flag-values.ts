import { PERMISSION_MODES, type PermissionMode, type ToolSearchMode } from "@pseudoclaude/core";
import { CODE_MODE_MODES, type CodeModeMode } from "@pseudoclaude/plugin-code-mode";
import { CliUsageError } from "./cli-errors.js";

/** `--mode` as a core permission mode; anything else is a usage error naming the choices. */
export function parseMode(value: string | undefined): PermissionMode | undefined {
  if (value === undefined) return undefined;
  // `accept-edits` as people type it is `accept_edits`.
  const mode = value.replace(/-/g, "_");
  if ((PERMISSION_MODES as readonly string[]).includes(mode)) return mode as PermissionMode;
  throw new CliUsageError(
    "invalid_mode",
    `--mode must be one of ${PERMISSION_MODES.join(", ")} (got "${value}").`,
    { details: { flag: "mode", value } },
  );
}

/**
 * The tool-search modes `--tool-search` takes. A record rather than a list so that a mode the
 * kernel adds fails to compile here until it is described.
 */
const TOOL_SEARCH_MODES: Record<ToolSearchMode, true> = { auto: true, always: true, never: true };

/** `--tool-search` as a kernel tool-search mode; anything else is a usage error naming the choices. */
export function parseToolSearchMode(value: string | undefined): ToolSearchMode | undefined {
  if (value === undefined) return undefined;
  if (Object.hasOwn(TOOL_SEARCH_MODES, value)) return value as ToolSearchMode;
  const modes = Object.keys(TOOL_SEARCH_MODES);
  throw new CliUsageError(
    "invalid_flag_value",
    `--tool-search must be one of ${modes.join(", ")} (got "${value}").`,
    { details: { flag: "tool-search", value } },
  );
}

/** `--code-mode` as a code-mode mode; anything else is a usage error naming the choices. */
export function parseCodeMode(value: string | undefined): CodeModeMode | undefined {
  if (value === undefined) return undefined;
  if ((CODE_MODE_MODES as readonly string[]).includes(value)) return value as CodeModeMode;
  throw new CliUsageError(
    "invalid_flag_value",
    `--code-mode must be one of ${CODE_MODE_MODES.join(", ")} (got "${value}").`,
    { details: { flag: "code-mode", value } },
  );
}

/** A positive whole number flag such as `--timeout-ms` or `--max-turns`. */
export function parsePositiveInteger(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(number) || number <= 0) {
    throw new CliUsageError(
      "invalid_flag_value",
      `--${flag} must be a positive whole number (got "${value}").`,
      { details: { flag, value } },
    );
  }
  return number;
}

/** `--port N`: a TCP port, 0 for any free one. */
export function parsePort(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const port = Number(value);
  if (!/^\d+$/.test(value.trim()) || port > 65_535)
    throw new CliUsageError(
      "invalid_flag_value",
      `--port must be a TCP port, 0 to 65535 (got "${value}").`,
      { details: { flag: "port", value } },
    );
  return port;
}
