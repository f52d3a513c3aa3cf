import type { ToolResult } from "../contracts/tool-result.js";
import type { Redactor } from "../diagnostics/redactor.js";

/**
 * A tool's result without the secrets registered with the agent (`${VAR}` values of headers
 * and env, OAuth secrets). A server handed a key through its env or a header can echo it back
 * (an error page quoting the header, a crash report, a "whoami"); what reaches the model,
 * events and session files must not carry it. Only registered values are replaced, not text
 * shaped like a credential, so tool output stays as it was otherwise. The result is changed in
 * place and returned; with nothing registered it is returned untouched.
 */
export function redactResult(result: ToolResult, redactor: Redactor | undefined): ToolResult {
  if (!redactor?.redactKnown || !redactor.knownCount) return result;
  const hide = (text: string) => redactor.redactKnown!(text);
  for (const block of result.content) {
    if (block.type === "text") block.text = hide(block.text);
    else if (block.type === "resource" && block.resource.text !== undefined)
      block.resource.text = hide(block.resource.text);
  }
  if (!result.ok) result.error.message = hide(result.error.message);
  if (result.structured !== undefined) result.structured = deep(result.structured, hide);
  return result;
}

function deep(value: unknown, hide: (text: string) => string): unknown {
  if (typeof value === "string") return hide(value);
  if (Array.isArray(value)) return value.map((item) => deep(item, hide));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = deep(item, hide);
    return out;
  }
  return value;
}
