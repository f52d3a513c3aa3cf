/**
 * What makes an unquoted YAML value mean something else than its text: flow (`{}[]`), anchors
 * and aliases (`&*`), comments (`#`), tags (`!`), block scalars (`|>`), directives (`%`),
 * reserved characters (`@` and the backtick), and `: ` inside a value, which starts a nested
 * mapping. A bare `:` (`12:30`, `https://`) is left alone, as Claude Code leaves it.
 */
const YAML_SPECIAL = /[{}[\]*&#!|>%@`]|: /;

/** A top-level `key: value` line: not indented, not a list item, a value on the same line. */
const KEY_VALUE_LINE = /^([A-Za-z_-]+):\s+(.+)$/;

/**
 * The front matter with every top-level value that holds a YAML-special character written as
 * a double-quoted string, line for line (so lines keep their numbers). This is Claude Code's
 * second attempt at front matter that is not YAML: authors write
 * `description: Use when: the user asks…` and expect the text, and Claude Code reads it so.
 * Values already in quotes, indented lines and block scalars' contents are left as they are.
 */
export function quoteSpecialValues(yaml: string): string {
  return yaml
    .split("\n")
    .map((line) => {
      // A line ending in "\r" does not match (`.` stops before it), as in Claude Code.
      const match = KEY_VALUE_LINE.exec(line);
      if (!match) return line;
      const key = match[1] as string;
      const value = match[2] as string;
      const quoted =
        (value.startsWith('"') && value.endsWith('"')) ||
        (value.startsWith("'") && value.endsWith("'"));
      if (quoted || !YAML_SPECIAL.test(value)) return line;
      const escaped = value.replace(/\\/g, "\\\\").replace(/"/g, '\\"');
      return `${key}: "${escaped}"`;
    })
    .join("\n");
}
