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
}

export function expandVariables(text: string, env: NodeJS.ProcessEnv = process.env): Expansion {
  const missing: string[] = [];
  let substituted = false;
  const value = text.replace(VARIABLE, (_match, name: string, fallback: string | undefined) => {
    substituted = true;
    const found = env[name];
    if (found !== undefined && found !== "") return found;
    if (fallback !== undefined) return fallback;
    missing.push(name);
    return "";
  });
  return { value, missing, substituted };
}
