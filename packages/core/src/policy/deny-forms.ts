import { shellWords } from "./shell-words.js";

/**
 * Every way a deny rule must see a shell command, so no spelling runs what it forbids:
 * - each sub-command (split at `;`, `&&`, `||`, `|`, `&`, new lines) and the inside of each
 *   `$(...)`, backtick, `<(...)`, `(...)` and `{ ...; }`;
 * - its words as the shell passes them (quotes and escapes removed, `$'\x72m'` decoded, `$IFS`
 *   a space, variables assigned earlier in the command substituted);
 * - without leading assignments, with a program path cut to its name (`/bin/rm`), past
 *   wrappers whatever options they take (`sudo -u root`, `env -i`, `timeout 5`, `xargs`),
 *   into `sh -c '...'`, `eval ...` and `find -exec ...`;
 * - after Unicode compatibility folding (fullwidth letters), with invisible format characters
 *   dropped and look-alike Cyrillic and Greek letters read as the Latin ones they imitate.
 * Rules match these forms ignoring case (a case-insensitive file system runs `RM` as `rm`).
 * `dynamic` says the command builds something only the shell can know (`$(...)`, an unknown
 * `$VAR` where a program name stands): a deny rule cannot rule it out.
 */
export interface DenyForms {
  forms: Set<string>;
  dynamic: boolean;
}

export function denyForms(command: string): DenyForms {
  const out: DenyForms = { forms: new Set(), dynamic: false };
  collect(command, 0, out);
  for (const form of [...out.forms]) {
    const folded = lookAlikesFolded(form);
    if (folded !== form) out.forms.add(folded);
  }
  return out;
}

/** `sh -c "sh -c '...'"` nests; past this depth the command counts as dynamic. */
const MAX_DEPTH = 4;
const ASSIGNMENT_WORD = /^[A-Za-z_][A-Za-z0-9_]*=/;
/** Programs that run the command given after their own options. */
const WRAPPERS = new Set([
  "builtin",
  "chroot",
  "command",
  "doas",
  "env",
  "exec",
  "flock",
  "ionice",
  "nice",
  "nohup",
  "setsid",
  "stdbuf",
  "strace",
  "sudo",
  "taskset",
  "time",
  "timeout",
  "unbuffer",
  "watch",
  "xargs",
]);
const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "busybox"]);
const EXEC_FLAGS = new Set(["-exec", "-execdir", "-ok", "-okdir"]);

function collect(command: string, depth: number, out: DenyForms): void {
  if (depth > MAX_DEPTH) {
    out.dynamic = true;
    return;
  }
  const text = normalised(command);
  out.forms.add(squeezed(text));
  if (/\$\(|`|<\(|>\(/.test(text)) out.dynamic = true;
  const variables = new Map<string, string>();
  for (const part of subCommands(text)) {
    if (part.trim().length === 0) continue;
    out.forms.add(squeezed(part));
    simpleCommand(part, variables, depth, out);
    // Inside backticks (and double quotes) the shell removes one level of backslashes before
    // running the command: `` "`\"rm\"`" `` runs "rm". Seen both ways.
    const unescaped = part.replace(/\\(["\\$`])/g, "$1");
    if (unescaped !== part) simpleCommand(unescaped, variables, depth, out);
  }
}

function simpleCommand(
  part: string,
  variables: Map<string, string>,
  depth: number,
  out: DenyForms,
): void {
  const { words, dynamic } = shellWords(part, variables);
  let start = 0;
  while (start < words.length && ASSIGNMENT_WORD.test(words[start]!)) {
    const word = words[start]!;
    const eq = word.indexOf("=");
    variables.set(word.slice(0, eq), word.slice(eq + 1));
    start++;
  }
  if (start >= words.length) return;
  if (dynamic && words[start]!.includes("$")) out.dynamic = true;
  programForms(words, start, depth, out);
}

function programForms(
  words: string[],
  at: number,
  depth: number,
  out: DenyForms,
  throughWrappers = true,
): void {
  // `NAME=value` words before a program set its environment (also after `env`, `find -exec`).
  while (at < words.length - 1 && ASSIGNMENT_WORD.test(words[at]!)) at++;
  out.forms.add(squeezed(words.join(" ")));
  out.forms.add(formFrom(words, at));
  const program = baseName(words[at]!).toLowerCase();
  const findExec = words.findIndex((word, i) => i > at && EXEC_FLAGS.has(word));
  if (findExec > 0 && findExec + 1 < words.length) programForms(words, findExec + 1, depth, out);
  if (program === "eval") {
    collect(words.slice(at + 1).join(" "), depth + 1, out);
    return;
  }
  if (SHELLS.has(program)) {
    // `sh -c CMD`, `bash -lc CMD`, `busybox sh -c CMD`: the word after the flag is a command.
    const flag = words.findIndex((word, i) => i > at && /^-[a-zA-Z]*c[a-zA-Z]*$/.test(word));
    if (flag > 0 && flag + 1 < words.length) collect(words[flag + 1]!, depth + 1, out);
    else if (program === "busybox" && at + 1 < words.length)
      programForms(words, at + 1, depth, out);
    return;
  }
  if (WRAPPERS.has(program) && throughWrappers) {
    // Each wrapper has options of its own (`sudo -u root`, `timeout 5`), so any later word may
    // be the program it runs. Every later word is tried here once, wrappers among them
    // included, so those are not walked again.
    for (let next = at + 1; next < words.length; next++)
      programForms(words, next, depth, out, false);
  }
}

/**
 * The sub-commands of a command line: split where the shell starts another command (`;`, `&`,
 * `|`, new lines) and around the insides of `(...)`, `$(...)`, backticks and `{ ...; }`, which
 * run as commands of their own. Quote-aware: inside single quotes nothing splits; inside double
 * quotes only a substitution does, and its inside is a command line again (quotes start over).
 * `${...}` is left whole.
 */
export function subCommands(text: string): string[] {
  const parts: string[] = [];
  let current = "";
  let quote: "'" | '"' | undefined;
  /** Open substitutions and subshells: what closes each, and the quoting outside it. */
  const open: Array<{ closer: ")" | "`"; quote: typeof quote }> = [];
  const cut = () => {
    if (current.trim().length > 0) parts.push(current);
    current = "";
  };
  const enter = (closer: ")" | "`") => {
    cut();
    open.push({ closer, quote });
    quote = undefined;
  };
  const leave = () => {
    cut();
    quote = open.pop()?.quote;
  };
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    const next = text[i + 1];
    if (char === "\\" && quote !== "'") {
      current += char + (next ?? "");
      i++;
      continue;
    }
    if (quote === "'") {
      current += char;
      if (char === "'") quote = undefined;
      continue;
    }
    if (char === "$" && next === "{") {
      // Left whole, whatever it holds: expanding it is the shell words' job.
      const close = text.indexOf("}", i);
      const end = close < 0 ? text.length - 1 : close;
      current += text.slice(i, end + 1);
      i = end;
      continue;
    }
    if (char === "$" && next === "(") {
      enter(")");
      i++;
      continue;
    }
    if (char === "`") {
      if (open.at(-1)?.closer === "`") leave();
      else enter("`");
      continue;
    }
    if (quote === '"') {
      current += char;
      if (char === '"') quote = undefined;
      continue;
    }
    if (char === "'" || char === '"') {
      quote = char;
      current += char;
      continue;
    }
    if (char === "(") {
      enter(")");
      continue;
    }
    if (char === ")") {
      leave();
      continue;
    }
    if (";&|\n".includes(char) || (char === "\r" && next === "\n")) {
      cut();
      continue;
    }
    if (
      (char === "{" || char === "}") &&
      /^\s*$/.test(current.slice(-1)) &&
      /^(\s|;|$)/.test(next ?? "")
    ) {
      cut();
      continue;
    }
    current += char;
  }
  cut();
  return parts;
}

function formFrom(words: string[], at: number): string {
  return squeezed([baseName(words[at]!), ...words.slice(at + 1)].join(" "));
}

function baseName(program: string): string {
  return program.includes("/") ? program.slice(program.lastIndexOf("/") + 1) : program;
}

/** Compatibility-folded (fullwidth `ｒｍ` is `rm`), without invisible format characters. */
function normalised(text: string): string {
  return text.normalize("NFKC").replace(/\p{Cf}/gu, "");
}

function squeezed(text: string): string {
  return text.trim().replace(/\s+/g, " ");
}

/**
 * Cyrillic and Greek letters drawn like Latin ones (Unicode's confusables for these scripts,
 * the lowercase and capital letters a command name could use).
 */
const LOOK_ALIKES: Record<string, string> = {
  а: "a",
  в: "b",
  с: "c",
  ԁ: "d",
  е: "e",
  һ: "h",
  і: "i",
  ј: "j",
  к: "k",
  м: "m",
  п: "n",
  о: "o",
  р: "p",
  ԛ: "q",
  г: "r",
  ѕ: "s",
  т: "t",
  ц: "u",
  ѵ: "v",
  ш: "w",
  х: "x",
  у: "y",
  А: "A",
  В: "B",
  С: "C",
  Е: "E",
  Н: "H",
  І: "I",
  Ј: "J",
  К: "K",
  М: "M",
  О: "O",
  Р: "P",
  Ѕ: "S",
  Т: "T",
  Х: "X",
  У: "Y",
  α: "a",
  β: "b",
  ε: "e",
  η: "n",
  ι: "i",
  κ: "k",
  ν: "v",
  ο: "o",
  ρ: "p",
  τ: "t",
  υ: "u",
  χ: "x",
  Α: "A",
  Β: "B",
  Ε: "E",
  Η: "H",
  Ι: "I",
  Κ: "K",
  Μ: "M",
  Ν: "N",
  Ο: "O",
  Ρ: "P",
  Τ: "T",
  Χ: "X",
  Υ: "Y",
  Ζ: "Z",
};
const LOOK_ALIKE = new RegExp(`[${Object.keys(LOOK_ALIKES).join("")}]`, "gu");

function lookAlikesFolded(text: string): string {
  return text.replace(LOOK_ALIKE, (char) => LOOK_ALIKES[char] ?? char);
}
