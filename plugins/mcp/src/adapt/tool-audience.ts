import type { ToolAudience } from "@pseudoclaude/core";

/** What MCP Apps' `_meta.ui.visibility` names. */
const AUDIENCES: ReadonlySet<string> = new Set<ToolAudience>(["model", "app"]);

/**
 * Who may call a server's tool, from its `_meta.ui.visibility` (MCP Apps): the values of the
 * list it names, absent meaning both. As the extension reads it, a list without `"model"` keeps
 * the tool from the model and one without `"app"` from views, so `[]` is for neither (a person
 * may still call it). A declaration that is not a list is `invalid`: the tool keeps the
 * default, and the listing says so.
 */
export function toolAudience(meta: Record<string, unknown> | undefined): {
  audience?: ToolAudience[];
  invalid?: unknown;
} {
  const ui = meta?.ui as { visibility?: unknown } | undefined;
  const visibility = ui?.visibility;
  if (visibility === undefined) return {};
  if (!Array.isArray(visibility)) return { invalid: visibility };
  const audience = [
    ...new Set(visibility.filter((value) => AUDIENCES.has(value))),
  ] as ToolAudience[];
  return audience.length === AUDIENCES.size ? {} : { audience };
}
