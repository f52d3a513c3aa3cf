/**
 * Matching shell commands against rule patterns such as `npm test*` or `git status:*`.
 * A command is split into sub-commands at `&&`, `||`, `;`, `|`, `&` and new lines, so that an
 * allow rule for `npm test*` does not let `npm test && rm -rf ~` through.
 */
const SEPARATORS = /&&|\|\||;|\||&|\r?\n/;
/** Command substitution or process substitution cannot be judged by prefix. */
const OPAQUE = /`|\$\(|<\(|>\(/;

export function splitCommand(command: string): string[] {
  return command
    .split(SEPARATORS)
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

/**
 * `every`: all sub-commands must match and nothing may be opaque (allow/ask rules).
 * `any`: one matching sub-command is enough (deny rules), and the whole string is tried too.
 */
export function commandMatches(pattern: string, command: string, mode: "every" | "any"): boolean {
  const matcher = compileCommandPattern(pattern);
  const parts = splitCommand(command);
  if (mode === "every") {
    if (OPAQUE.test(command) || parts.length === 0) return false;
    return parts.every((part) => matcher(part));
  }
  return matcher(command.trim()) || parts.some((part) => matcher(part));
}

/** `*` matches anything; a trailing `:*` means "this command, alone or with arguments". */
export function compileCommandPattern(pattern: string): (command: string) => boolean {
  const trimmed = pattern.trim();
  if (trimmed.endsWith(":*")) {
    const prefix = normaliseSpaces(trimmed.slice(0, -2));
    return (command) => {
      const normalised = normaliseSpaces(command);
      return normalised === prefix || normalised.startsWith(`${prefix} `);
    };
  }
  const source = normaliseSpaces(trimmed)
    .split("*")
    .map((piece) => piece.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  const regex = new RegExp(`^${source}$`, "s");
  return (command) => regex.test(normaliseSpaces(command));
}

function normaliseSpaces(text: string): string {
  return text.trim().replace(/\s+/g, " ");
}
