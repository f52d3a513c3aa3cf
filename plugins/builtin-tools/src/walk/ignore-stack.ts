import { readFile } from "node:fs/promises";
import path from "node:path";
import ignore, { type Ignore } from "ignore";

interface Layer {
  directory: string;
  rules: Ignore;
}

/**
 * The `.gitignore` files in effect for one directory of a walk: its own and its ancestors'.
 * As in git, the deepest file with a rule for a path decides, so a nested `!pattern` can
 * re-include what a parent ignored.
 */
export class IgnoreStack {
  private constructor(private readonly layers: readonly Layer[]) {}

  static empty(): IgnoreStack {
    return new IgnoreStack([]);
  }

  /** The stack for `directory`, reading its `.gitignore` if it has one. */
  async enter(directory: string, hasIgnoreFile = true): Promise<IgnoreStack> {
    if (!hasIgnoreFile) return this;
    const text = await readFile(path.join(directory, ".gitignore"), "utf8").catch(() => undefined);
    if (text === undefined) return this;
    return new IgnoreStack([...this.layers, { directory, rules: ignore().add(text) }]);
  }

  ignores(absolute: string, isDirectory: boolean): boolean {
    for (let index = this.layers.length - 1; index >= 0; index--) {
      const layer = this.layers[index]!;
      const relative = path.relative(layer.directory, absolute).split(path.sep).join("/");
      if (relative === "" || relative.startsWith("..")) continue;
      const verdict = layer.rules.test(isDirectory ? `${relative}/` : relative);
      if (verdict.ignored) return true;
      if (verdict.unignored) return false;
    }
    return false;
  }
}
