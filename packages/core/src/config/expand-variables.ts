/**
 * `${NAME}` and `${NAME:-default}` expansion. Used only where a section's owner says so (MCP
 * expands only `env` and `headers`), never over whole files, so a `$` in a command or a URL
 * stays what the user wrote.
 */
const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export interface Expansion {
  value: string;
  /** Variables that were unset and had no default: they expanded to "". */
  missing: string[];
  /** Whether anything was substituted (the result may hold a secret). */
  substituted: boolean;
  /**
   * What each variable expanded to: a secret wherever it lands (a URL's path or query, a header,
   * an env value), whatever the variable is called. Register each with the redactor.
   */
  values: string[];
  /** The names of the variables the text uses. */
  names: string[];
}

export function expandVariables(text: string, env: NodeJS.ProcessEnv = process.env): Expansion {
  const missing: string[] = [];
  const values: string[] = [];
  const names: string[] = [];
  let substituted = false;
  const value = text.replace(VARIABLE, (_match, name: string, fallback: string | undefined) => {
    substituted = true;
    names.push(name);
    const found = env[name];
    if (found !== undefined && found !== "") {
      values.push(found);
      return found;
    }
    if (fallback !== undefined) return fallback;
    missing.push(name);
    return "";
  });
  return { value, missing, substituted, values, names };
}

/** The names of the `${VAR}`s a text uses, without expanding anything. */
export function variableNames(text: string): string[] {
  return [...text.matchAll(VARIABLE)].map((match) => match[1] ?? "");
}
