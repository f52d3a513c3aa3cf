import { PseudoClaudeError } from "@pseudoclaude/core";
import { CliConfigError } from "./cli-errors.js";

// The providers' documented variables, named here rather than imported: saying how to install
// and choose a provider must not need the provider's package loaded.
const ANTHROPIC_API_KEY_ENV = "ANTHROPIC_API_KEY";
const OPENAI_API_KEY_ENV = "OPENAI_API_KEY";
const OPENAI_BASE_URL_ENV = "OPENAI_BASE_URL";

/**
 * How to choose a model, for someone who ran `run` or `chat` without one: the flag, the keys
 * each provider reads, the offline script and the config key. A key already in the
 * environment is named first, since it is the likeliest intent. The CLI never picks a
 * provider from the environment by itself: which model a run talks to (and bills) stays
 * an explicit choice.
 */
export function noProviderHelp(
  env: Readonly<Record<string, string | undefined>>,
  /** The first sentence: what needed a provider. */
  lead = "No model provider is configured.",
): string {
  const present = [
    [ANTHROPIC_API_KEY_ENV, "anthropic"],
    [OPENAI_API_KEY_ENV, "openai"],
  ].filter(([variable]) => Boolean(env[variable!]));
  const lines = [
    `${lead} Choose one:`,
    ...present.map(([variable, provider]) => `  ${variable} is set: add --provider ${provider}`),
    `  --provider anthropic          reads ${ANTHROPIC_API_KEY_ENV}`,
    `  --provider openai             reads ${OPENAI_API_KEY_ENV}`,
    `  --provider openai-compatible  a local server (Ollama, vLLM ...): ${OPENAI_BASE_URL_ENV} and --model`,
    "  --script FILE                 a scripted model, offline (a JSON list of turns)",
    "or once for every run, in ~/.PseudoClaude/config.yaml (docs/providers.md):",
    "  provider:",
    "    name: anthropic",
  ];
  return lines.join("\n");
}

/**
 * The kernel's "no provider" error, told the CLI's way: same code and exit status, with the
 * ways to choose one. Any other error is returned as it is.
 */
export function explainNoProvider(
  error: unknown,
  env: Readonly<Record<string, string | undefined>> = process.env,
): unknown {
  if (!PseudoClaudeError.is(error) || error.code !== "no_provider") return error;
  return new CliConfigError("no_provider", noProviderHelp(env), { cause: error });
}
