import { CliConfigError } from "./cli-errors.js";

/**
 * Import a package the CLI loads only when a command needs it (a provider, durable runs,
 * tracing to a file). The CLI installs without them, so a missing one is the user's choice,
 * not a bug: the error says which command needed it and the line that installs it. A
 * package that is present but fails to load keeps its own error, so a broken install is
 * not mistaken for a missing one.
 */
export async function importOptional<T>(name: string, neededFor: string): Promise<T> {
  try {
    return (await import(name)) as T;
  } catch (error) {
    if (isMissingPackage(error, [name])) throw missingPackage([packageOf(name)], neededFor, error);
    throw error;
  }
}

/** The error for packages a command needs and cannot find; `details.packages` names them. */
export function missingPackage(
  packages: readonly string[],
  neededFor: string,
  cause?: unknown,
): CliConfigError {
  const list = packages.join(" ");
  return new CliConfigError(
    "missing_package",
    `${neededFor} needs ${packages.length === 1 ? "the package" : "the packages"} ${list}, which ${packages.length === 1 ? "is" : "are"} not installed. Install ${packages.length === 1 ? "it" : "them"} where pseudoclaude is installed: npm install ${list} (npm install -g ${list} for a global pseudoclaude).`,
    { details: { packages: [...packages], needed_for: neededFor }, cause },
  );
}

/** `@scope/name/sub/path` -> `@scope/name`; `name/sub` -> `name`. */
export function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? specifier);
}

/**
 * Whether an import failed because one of these packages is absent. Node says "Cannot find
 * package 'NAME' imported from …"; a package that is present but misses one of its own
 * dependencies names that one instead, and is not reported as missing.
 */
export function isMissingPackage(error: unknown, specifiers: readonly string[]): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code !== "ERR_MODULE_NOT_FOUND" || typeof message !== "string") return false;
  return specifiers.some((specifier) => message.includes(`'${packageOf(specifier)}'`));
}
