/**
 * The words a POSIX shell would pass to a program for one simple command: quotes removed
 * (`'rm'`, `"rm"`, `r''m`), backslash escapes resolved (`\rm`), ANSI-C strings decoded
 * (`$'\x72m'`), `$IFS` read as a space. Used by deny rules, which must see the program a
 * command really runs however it is spelled. Not a full shell: expansions it cannot evaluate
 * are kept as written and reported (`dynamic`), so the caller can refuse to trust them.
 */
export interface ShellWords {
  words: string[];
  /** A `$name`, `${...}` or `$(...)` / backtick the shell would expand at run time. */
  dynamic: boolean;
}

export function shellWords(
  command: string,
  variables: ReadonlyMap<string, string> = new Map(),
): ShellWords {
  const words: string[] = [];
  let dynamic = false;
  let current = "";
  let inWord = false;
  const end = () => {
    if (inWord) words.push(current);
    current = "";
    inWord = false;
  };
  for (let i = 0; i < command.length; i++) {
    const char = command[i]!;
    if (/\s/.test(char)) {
      end();
      continue;
    }
    inWord = true;
    if (char === "\\") {
      // A backslash-newline joins lines; any other escaped character is itself.
      if (command[i + 1] === "\n") i++;
      else if (i + 1 < command.length) current += command[++i];
      continue;
    }
    if (char === "'") {
      const close = command.indexOf("'", i + 1);
      const stop = close < 0 ? command.length : close;
      current += command.slice(i + 1, stop);
      i = stop;
      continue;
    }
    if (char === "$" && command[i + 1] === "'") {
      const decoded = ansiC(command, i + 2);
      current += decoded.text;
      i = decoded.end;
      continue;
    }
    if (char === '"') {
      let j = i + 1;
      for (; j < command.length && command[j] !== '"'; j++) {
        if (command[j] === "\\" && /["\\$`\n]/.test(command[j + 1] ?? "")) {
          if (command[j + 1] !== "\n") current += command[j + 1];
          j++;
        } else if (command[j] === "$") {
          const expanded = expand(command, j, variables);
          if (expanded.dynamic) dynamic = true;
          current += expanded.text;
          j = expanded.end;
        } else {
          if (command[j] === "`") dynamic = true;
          current += command[j];
        }
      }
      i = j;
      continue;
    }
    if (char === "$") {
      const expanded = expand(command, i, variables);
      if (expanded.dynamic) dynamic = true;
      // An unquoted expansion is split into words, as the shell splits it.
      const pieces = expanded.text.split(/\s+/);
      current += pieces[0];
      for (const piece of pieces.slice(1)) {
        end();
        inWord = true;
        current = piece;
      }
      if (pieces.at(-1) === "") inWord = current.length > 0;
      i = expanded.end;
      continue;
    }
    if (char === "`") dynamic = true;
    current += char;
  }
  end();
  return { words, dynamic };
}

/** `$IFS`, `${IFS}`, a variable assigned earlier in the command, or something dynamic. */
function expand(
  command: string,
  at: number,
  variables: ReadonlyMap<string, string>,
): { text: string; end: number; dynamic: boolean } {
  const braced = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}/.exec(command.slice(at));
  const plain = /^\$([A-Za-z_][A-Za-z0-9_]*)/.exec(command.slice(at));
  const match = braced ?? plain;
  if (match) {
    const name = match[1]!;
    const end = at + match[0].length - 1;
    if (name === "IFS") return { text: " ", end, dynamic: false };
    const value = variables.get(name);
    if (value !== undefined) return { text: value, end, dynamic: false };
    return { text: match[0], end, dynamic: true };
  }
  const next = command[at + 1];
  // `$(`, `${...}` with operators, `$1`, `$@`...: only the shell knows.
  if (next === "(" || next === "{" || (next !== undefined && /[0-9@*#?$!-]/.test(next)))
    return { text: "$", end: at, dynamic: true };
  return { text: "$", end: at, dynamic: false };
}

/** Bash's `$'...'`: backslash escapes decoded, up to the closing quote. */
function ansiC(command: string, start: number): { text: string; end: number } {
  let text = "";
  let i = start;
  for (; i < command.length && command[i] !== "'"; i++) {
    if (command[i] !== "\\") {
      text += command[i];
      continue;
    }
    const rest = command.slice(i + 1);
    const hex = /^x([0-9A-Fa-f]{1,2})/.exec(rest);
    const unicode = /^u([0-9A-Fa-f]{1,4})|^U([0-9A-Fa-f]{1,8})/.exec(rest);
    const octal = /^([0-7]{1,3})/.exec(rest);
    if (hex) {
      text += String.fromCharCode(Number.parseInt(hex[1]!, 16));
      i += hex[0].length;
    } else if (unicode) {
      const code = Number.parseInt((unicode[1] ?? unicode[2])!, 16);
      text += code <= 0x10ffff ? String.fromCodePoint(code) : "";
      i += unicode[0].length;
    } else if (octal) {
      text += String.fromCharCode(Number.parseInt(octal[1]!, 8) & 0xff);
      i += octal[0].length;
    } else {
      const escaped = rest[0] ?? "";
      text += SIMPLE_ESCAPES[escaped] ?? escaped;
      i += 1;
    }
  }
  return { text, end: i };
}

const SIMPLE_ESCAPES: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  v: "\v",
};
