import {
  summarizeToolOffer,
  type ToolOffer,
  type ToolOfferSummary,
  type ToolState,
  toolStates,
} from "@pseudoclaude/core";

/** What `tools` and chat's `/tools` say about tool search: each tool's state, and the totals. */
export interface ToolSearchReport extends ToolOfferSummary {
  /** Each offered tool's state; a tool the policy does not offer has none. */
  states: ReadonlyMap<string, ToolState>;
}

/** Read an offer (`Agent.toolOffer()`) as the CLI reports it, by the kernel's own count. */
export function toolSearchReport(offer: ToolOffer): ToolSearchReport {
  return { ...summarizeToolOffer(offer), states: toolStates(offer) };
}
