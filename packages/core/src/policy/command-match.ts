import { denyForms, subCommands } from "./deny-forms.js";

/**
 * Matching shell commands against rule patterns such as `npm test*` or `git status:*`.
 * A command is split into sub-commands where the shell starts another one (`&&`, `||`, `;`,
 * `|`, `&`, new lines, subshells; quote-aware, the same split deny rules use), so that an allow
 * rule for `npm test*` does not let `npm test && rm -rf ~` through.
 */
/** Command substitution or process substitution cannot be judged by prefix. */
const OPAQUE = /`|\$\(|<\(|>\(/;

export function splitCommand(command: string): string[] {
  return subCommands(command)
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

/**
 * `every`: all sub-commands must match and nothing may be opaque (allow/ask rules).
 * `any`: the command as a deny rule sees it (deny-forms.ts) matches in one of its forms.
 */
export function commandMatches(pattern: string, command: string, mode: "every" | "any"): boolean {
  if (mode === "any") return commandDenyMatch(pattern, command) === "match";
  const matcher = compileCommandPattern(pattern);
  const parts = splitCommand(command);
  if (OPAQUE.test(command) || parts.length === 0) return false;
  return parts.every((part) => matcher(part));
}

/**
 * How a deny rule's pattern meets a command: it matches one of the command's forms (ignoring
 * case), or it matches none but the command builds something at run time that it cannot rule
 * out (`unclear`: the policy then asks, whatever the mode), or it does not match.
 */
export function commandDenyMatch(pattern: string, command: string): "match" | "unclear" | "no" {
  const matcher = compileCommandPattern(pattern, { ignoreCase: true });
  const { forms, dynamic } = denyForms(command);
  for (const form of forms) if (matcher(form)) return "match";
  return dynamic ? "unclear" : "no";
}

/** `*` matches anything; a trailing `:*` means "this command, alone or with arguments". */
export function compileCommandPattern(
  pattern: string,
  options: { ignoreCase?: boolean } = {},
): (command: string) => boolean {
  const trimmed = pattern.trim();
  const fold = options.ignoreCase ? (text: string) => text.toLowerCase() : (text: string) => text;
  if (trimmed.endsWith(":*")) {
    const prefix = fold(normaliseSpaces(trimmed.slice(0, -2)));
    return (command) => {
      const normalised = fold(normaliseSpaces(command));
      return normalised === prefix || normalised.startsWith(`${prefix} `);
    };
  }
  const source = normaliseSpaces(trimmed)
    .split("*")
    .map((piece) => piece.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  const regex = new RegExp(`^${source}$`, options.ignoreCase ? "si" : "s");
  return (command) => regex.test(normaliseSpaces(command));
}

function normaliseSpaces(text: string): string {
  return text.trim().replace(/\s+/g, " ");
}
