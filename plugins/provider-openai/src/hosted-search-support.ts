import type { OpenAISettings } from "./resolve-settings.js";

/**
 * `gpt-<major>[.<minor>]` at the start of a model id, followed by nothing, `-` (`-mini`,
 * `-pro`, a dated snapshot) or `.`. `gpt-4o`, `o3` and ids of other servers do not match.
 */
const GPT_VERSION = /^gpt-(\d+)(?:\.(\d+))?(?=$|[-.])/i;

/**
 * Whether OpenAI's hosted `tool_search` takes requests for this model: its guide says only
 * gpt-5.4 and later do, so `gpt-5.4`, `gpt-5.4-mini`, `gpt-5.5`, `gpt-6` yes; `gpt-5`,
 * `gpt-5.2`, `gpt-4.1`, `gpt-4o` and any id that does not read as a GPT version no. An id we
 * cannot place gets the agent's own search, which works with every model.
 */
export function supportsHostedToolSearch(model: string): boolean {
  const match = GPT_VERSION.exec(model);
  if (!match) return false;
  const major = Number(match[1]);
  const minor = Number(match[2] ?? 0);
  return major > 5 || (major === 5 && minor >= 4);
}

/**
 * The endpoint is OpenAI's own: no `baseURL` (the SDK's default), or one on api.openai.com.
 * Compatible servers (Ollama, vLLM, OpenRouter, a proxy) may not run OpenAI's search.
 */
export function isOpenAIEndpoint(baseURL: string | undefined): boolean {
  if (baseURL === undefined) return true;
  try {
    return new URL(baseURL).hostname === "api.openai.com";
  } catch {
    return false;
  }
}

/**
 * Whether deferred tools go to OpenAI's hosted search rather than the agent's own
 * `tool_search`: never with Chat Completions (it has no search); with the Responses API when
 * forced (`toolSearch: "hosted"`), or by default (`auto`) against OpenAI's endpoint with a
 * model that supports it.
 */
export function usesHostedToolSearch(
  settings: Pick<OpenAISettings, "api" | "toolSearch" | "baseURL" | "model">,
): boolean {
  if (settings.api !== "responses" || settings.toolSearch === false) return false;
  if (settings.toolSearch === "hosted") return true;
  return isOpenAIEndpoint(settings.baseURL) && supportsHostedToolSearch(settings.model);
}
