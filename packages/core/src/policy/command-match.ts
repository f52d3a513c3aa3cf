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
  return (
    matcher(command.trim()) || parts.some((part) => denyForms(part).some((form) => matcher(form)))
  );
}

/** Leading `NAME=value` assignments and wrappers that run the command that follows. */
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=(?:'[^']*'|"[^"]*"|\S*)\s+/;
const WRAPPERS = new Set(["command", "exec", "sudo", "env", "nohup", "time", "nice"]);

/**
 * The ways a deny rule should see one sub-command: as written, without leading variable
 * assignments and wrappers (`FOO=1 sudo rm -rf x`), and with a path to the program cut to its
 * name (`/bin/rm`). Only deny rules look this deep; allow rules match what is written.
 */
function denyForms(part: string): string[] {
  const forms = [part];
  let rest = part;
  for (;;) {
    const assignment = ASSIGNMENT.exec(rest);
    if (assignment) {
      rest = rest.slice(assignment[0].length);
      continue;
    }
    const [first = "", ...others] = rest.split(/\s+/);
    if (WRAPPERS.has(first) && others.length > 0) {
      rest = others.join(" ");
      continue;
    }
    break;
  }
  if (rest !== part) forms.push(rest);
  const [program = "", ...args] = rest.split(/\s+/);
  if (program.includes("/"))
    forms.push([program.slice(program.lastIndexOf("/") + 1), ...args].join(" "));
  return forms;
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
