import { type Diagnostic, formatDiagnostic } from "../contracts/diagnostic.js";
import { ConfigError } from "../errors.js";

/** A `ConfigError` listing every blocking diagnostic, each with its file and line. */
export function throwOnBlocking(diagnostics: readonly Diagnostic[]): void {
  const blocking = diagnostics.filter((diagnostic) => diagnostic.blocking);
  if (blocking.length === 0) return;
  throw new ConfigError(
    "config_invalid",
    `The configuration has ${blocking.length === 1 ? "a problem" : `${blocking.length} problems`} that must be fixed before the agent starts (settings that restrict it, or mistakes in code), so nothing was started:\n${blocking.map((diagnostic) => `  ${formatDiagnostic(diagnostic)}`).join("\n")}`,
    { details: { diagnostics: blocking } },
  );
}
