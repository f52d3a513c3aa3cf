import {
  summarizeToolOffer,
  type ToolOffer,
  type ToolOfferSummary,
  type ToolState,
  toolStates,
} from "@pseudoclaude/core";

/** `GET /api/tools` `toolSearch`: who searches, why, the tools per state and their tokens. */
export type StudioToolSearch = ToolOfferSummary;

/** The agent's offer (`Agent.toolOffer()`) as the Tools page shows it, by the kernel's count. */
export function toolSearchSummary(offer: ToolOffer): {
  summary: StudioToolSearch;
  states: ReadonlyMap<string, ToolState>;
} {
  return { summary: summarizeToolOffer(offer), states: toolStates(offer) };
}
