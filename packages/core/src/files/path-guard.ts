import path from "node:path";
import { resolveRealPath } from "./real-path.js";

/** A path a tool may use: where it really leads and how to show it. */
export interface ConfinedPath {
  /** Absolute real path (symbolic links resolved): what the tool reads or writes. */
  real: string;
  /** Relative to the workspace when inside it (`.` for the root), absolute otherwise. */
  display: string;
  exists: boolean;
}

export type PathCheck = { ok: true; path: ConfinedPath } | { ok: false; message: string };

/**
 * Confines every path a tool touches to the workspace and the configured extra roots. Paths
 * are resolved against the workspace and then through every symbolic link, so neither `..`
 * nor a link can lead outside.
 */
export interface PathGuard {
  /** Real path of the workspace. */
  readonly workspace: string;
  /** Real paths of the extra roots. */
  readonly extraRoots: readonly string[];
  check(input: string): Promise<PathCheck>;
  /** The root that holds a real path, if any. */
  rootOf(real: string): string | undefined;
  display(real: string): string;
}

export class DefaultPathGuard implements PathGuard {
  private readonly roots: readonly string[];

  constructor(
    readonly workspace: string,
    readonly extraRoots: readonly string[] = [],
    /** What the main root is to the reader of a refusal: `the workspace`, `the skill's folder`. */
    private readonly rootName = "the workspace",
  ) {
    this.roots = [workspace, ...extraRoots];
  }

  async check(input: string): Promise<PathCheck> {
    if (input.includes("\0")) {
      return { ok: false, message: `Path ${JSON.stringify(input)} contains a NUL character.` };
    }
    const absolute = path.resolve(this.workspace, input);
    let resolved: Awaited<ReturnType<typeof resolveRealPath>>;
    try {
      resolved = await resolveRealPath(absolute);
    } catch (error) {
      return {
        ok: false,
        message: `Path "${input}" cannot be resolved: ${(error as Error).message}`,
      };
    }
    if (this.rootOf(resolved.real) === undefined) {
      const via =
        this.rootOf(absolute) !== undefined
          ? ` through a symbolic link to ${resolved.real}`
          : absolute !== input
            ? ` (${absolute})`
            : "";
      return {
        ok: false,
        message: `Path "${input}" leads outside ${this.rootName}${via}; only paths inside ${this.describeRoots()} can be used.`,
      };
    }
    return { ok: true, path: { ...resolved, display: this.display(resolved.real) } };
  }

  rootOf(real: string): string | undefined {
    return this.roots.find((root) => isInside(real, root));
  }

  display(real: string): string {
    if (!isInside(real, this.workspace)) return real;
    return path.relative(this.workspace, real).split(path.sep).join("/") || ".";
  }

  private describeRoots(): string {
    if (this.extraRoots.length === 0) return `${this.rootName} ${this.workspace}`;
    return `${this.rootName} ${this.workspace} and the extra roots ${this.extraRoots.join(", ")}`;
  }
}

/**
 * A guard over a main root (real path: the workspace, a skill's folder) and extra roots (real
 * paths); `rootName` is how refusals name the main root.
 */
export function createPathGuard(
  workspace: string,
  extraRoots: readonly string[] = [],
  rootName?: string,
): PathGuard {
  return new DefaultPathGuard(workspace, extraRoots, rootName);
}

function isInside(candidate: string, root: string): boolean {
  if (candidate === root) return true;
  const prefix = root.endsWith(path.sep) ? root : `${root}${path.sep}`;
  return candidate.startsWith(prefix);
}
