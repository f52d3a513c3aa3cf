// From what the model sent to what QuickJS evaluates: fences blanked, TypeScript types
// stripped, line numbers kept (so an error's line is a line of what the model wrote).

/** The wrapper around a program: line 1 of the program is line 1 of the file QuickJS sees. */
export const PROGRAM_FILE = "program.js";
const WRAP_START = "(async () => {";

/** A program ready for QuickJS, or the syntax error that stops it. */
export type PreparedSource =
  | { ok: true; code: string }
  | { ok: false; message: string; line?: number };

type Transform = typeof import("sucrase")["transform"];
let transformer: Promise<Transform> | undefined;

/** Load the TypeScript stripper ahead of the first program. */
export function loadTransformer(): Promise<Transform> {
  if (transformer) return transformer;
  const pending = import("sucrase").then((sucrase) => sucrase.transform);
  transformer = pending;
  // A failed load is not kept: the next program tries again.
  pending.catch(() => {
    if (transformer === pending) transformer = undefined;
  });
  return pending;
}

/**
 * Blank a ``` fence around the whole program (the lines stay, so numbering does not move).
 * Only an opening fence on the first written line counts; its closing fence is optional.
 */
export function blankFences(source: string): string {
  const lines = source.split("\n");
  const first = lines.findIndex((line) => line.trim() !== "");
  if (first === -1 || !/^\s*```[\w-]*\s*$/.test(lines[first] ?? "")) return source;
  lines[first] = "";
  for (let index = lines.length - 1; index > first; index--) {
    const line = lines[index] ?? "";
    if (line.trim() === "") continue;
    if (/^\s*```\s*$/.test(line)) lines[index] = "";
    break;
  }
  return lines.join("\n");
}

/** Strip types with sucrase; imports are kept so that QuickJS reports them. */
export async function prepareSource(source: string): Promise<PreparedSource> {
  const transform = await loadTransformer();
  const unfenced = blankFences(source);
  try {
    const { code } = transform(unfenced, {
      transforms: ["typescript"],
      disableESTransforms: true,
      keepUnusedImports: true,
    });
    return { ok: true, code: `${WRAP_START}${code}\n})` };
  } catch (error) {
    const located = error as { message?: unknown; loc?: { line?: unknown } };
    const message = String(located.message ?? error).replace(/\s*\(\d+:\d+\)$/, "");
    const line = typeof located.loc?.line === "number" ? located.loc.line : undefined;
    return syntaxError(unfenced, message, line);
  }
}

/** The SYNTAX message for an error at `line`: imports and exports get a message of their own. */
export function syntaxError(
  source: string,
  message: string,
  line: number | undefined,
): { ok: false; message: string; line?: number } {
  const text = line === undefined ? "" : (source.split("\n")[line - 1] ?? "");
  if (/^\s*import\s*(?:[\w$*{]|["'])/.test(text))
    return { ok: false, message: "imports are not available; call tools.*", line: line as number };
  if (/^\s*export\b/.test(text))
    return {
      ok: false,
      message: "exports are not available; end the program with return <value>",
      line: line as number,
    };
  const where = line === undefined ? "" : ` (line ${line})`;
  return line === undefined
    ? { ok: false, message: `SyntaxError: ${message}` }
    : { ok: false, message: `SyntaxError: ${message}${where}`, line };
}

/** The source line a QuickJS stack points at in the program, if any. */
export function programLine(stack: string): number | undefined {
  const match = new RegExp(`${PROGRAM_FILE.replace(".", "\\.")}:(\\d+)`).exec(stack);
  return match ? Number(match[1]) : undefined;
}
