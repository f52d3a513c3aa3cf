import type { ContextManager } from "../context/context-manager.js";
import type { AgentEvents } from "../contracts/agent-events.js";
import type { PolicyEngine } from "../contracts/policy-engine.js";
import type { Provider } from "../contracts/provider.js";
import type { Tool } from "../contracts/tool.js";
import { type ToolDefinition, visibleToModel } from "../contracts/tool-definition.js";
import type { Conversation } from "../conversation/conversation.js";
import type { ToolRegistry } from "../registry/tool-registry.js";
import { ToolSearchIndex, type ToolSearchMatch } from "../tool-search/search-index.js";
import {
  TOOL_SEARCH_SOURCE,
  type ToolSearchCapability,
  type ToolSearchOutcome,
  toolSearchTool,
} from "../tool-search/search-tool.js";
import { decideOffer, type ToolOffer } from "../tool-search/tool-offer.js";
import type { ToolSearchSettings } from "../tool-search/tool-search-options.js";
import type { AgentSettings } from "./agent.js";
import type { ProviderRef } from "./provider-ref.js";

/** What the offer reads of its agent, each time it decides. */
export interface OfferContext {
  /** The tool-search settings, and the context window configured over the provider's. */
  settings: Pick<AgentSettings, "toolSearch" | "contextWindow">;
  providerRef: ProviderRef;
  /** Estimates what definitions cost, as it estimates every request. */
  context: Pick<ContextManager, "estimate">;
  /** Tools were found (by our search or the provider's): the agent reports it. */
  onFound(found: AgentEvents["tool-search"][0]): void;
}

/**
 * What the model is offered, per conversation: decided from the registry, the policy (its
 * layers and mode), the tool-search settings, the provider and the tools the conversation
 * found, and rebuilt only when one of those moves, not on every turn. It also runs the
 * searches of its conversation: our `tool_search` tool calls it through the call's context.
 */
export class OfferedTools {
  /** The turn the conversation is on, for the events searches report. */
  turn = 0;
  private cachedKey = "";
  private cachedProvider: Provider | undefined;
  private cached: ToolOffer | undefined;
  private readonly searchTool: Tool;
  private readonly settings: ToolSearchSettings;
  /**
   * The index over the found and deferred tools. Finding a tool moves it from one to the other,
   * so the index holds until the tools themselves, the policy or the provider change.
   */
  private index:
    | { key: string; provider: Provider | undefined; built: Promise<ToolSearchIndex> }
    | undefined;
  /** What our search tool gets in its context. */
  readonly capability: ToolSearchCapability = {
    search: (query, limit) => this.search(query, limit),
  };

  constructor(
    private readonly registry: ToolRegistry,
    private readonly policy: PolicyEngine,
    private readonly layers: { readonly version: number },
    private readonly conversation: Conversation,
    private readonly context: OfferContext,
  ) {
    this.settings = context.settings.toolSearch;
    this.searchTool = toolSearchTool(this.settings.maxResults);
  }

  /** Every tool the model can reach: those sent and those it can find. */
  reachable(): readonly ToolDefinition[] {
    const offer = this.offer();
    if (offer.engine === "none") return offer.sent;
    return [...offer.sent, ...(offer.engine === "provider" ? offer.found : []), ...offer.deferred];
  }

  private provider(): Provider | undefined {
    return this.context.providerRef.provider;
  }

  private contextWindow(): number | undefined {
    return this.context.settings.contextWindow ?? this.provider()?.contextWindow;
  }

  private readonly estimate = (tools: readonly ToolDefinition[]): number =>
    this.context.context.estimate({ system: "", messages: [], tools });

  /** The offer for the next request. */
  offer(): ToolOffer {
    const provider = this.provider();
    // The mode decides what is offered too (plan mode hides side-effect tools).
    const key = () =>
      `${this.registry.version}:${this.layers.version}:${this.policy.mode}:${this.conversation.foundVersion}:${this.contextWindow()}`;
    if (this.cached && key() === this.cachedKey && provider === this.cachedProvider)
      return this.cached;
    const searchTool = this.searchTool.definition;
    const offer = decideOffer({
      // An app-only tool is never shown to a model: not sent, not found, not in a program.
      offered: this.registry
        .definitions()
        .filter((definition) => visibleToModel(definition) && this.policy.isOffered(definition)),
      searchTool: this.policy.isOffered(searchTool) ? searchTool : undefined,
      found: this.conversation.found,
      settings: this.settings,
      provider,
      contextWindow: this.contextWindow(),
      estimate: this.estimate,
    });
    // Registered on first need, so an agent that never defers a tool never shows one; the
    // registry runs it like any tool (policy, hooks, tracing, the session log).
    if (offer.engine === "local" && this.registry.get(searchTool.name) === undefined)
      this.registry.applyChange(TOOL_SEARCH_SOURCE, { kind: "full", tools: [this.searchTool] });
    const sent = this.asSent(offer);
    this.cached = sent;
    this.cachedKey = key();
    this.cachedProvider = provider;
    return sent;
  }

  /**
   * A tool that describes itself by what is sent with it (code mode declares the other tools)
   * gives its definition for this offer; the others are sent as registered.
   */
  private asSent(offer: ToolOffer): ToolOffer {
    let changed = false;
    const sent = offer.sent.map((definition) => {
      const own = this.registry.get(definition.name)?.offeredDefinition?.(offer.sent);
      if (!own) return definition;
      changed = true;
      return own;
    });
    return changed ? { ...offer, sent } : offer;
  }

  /** The definitions a request carries (see {@link ToolOffer.sent}). */
  current(): readonly ToolDefinition[] {
    return this.offer().sent;
  }

  /** Tools the provider's own search found: they stay loaded for the conversation. */
  providerFound(query: string, names: readonly string[]): void {
    const offer = this.offer();
    const known = new Set([...offer.deferred, ...offer.found].map((tool) => tool.name));
    const added = this.conversation.addFound(names.filter((name) => known.has(name)));
    this.context.onFound({ turn: this.turn, engine: "provider", query, found: added });
  }

  private async search(query: string, limit: number | undefined): Promise<ToolSearchOutcome> {
    const offer = this.offer();
    const key = `${this.registry.version}:${this.layers.version}:${this.policy.mode}:${this.contextWindow()}`;
    const provider = this.provider();
    if (this.index?.key !== key || this.index.provider !== provider)
      this.index = {
        key,
        provider,
        built: ToolSearchIndex.build([...offer.found, ...offer.deferred]),
      };
    const index = await this.index.built;
    const matches = index.search(query, limit ?? this.settings.maxResults);
    let loaded = strongMatches(matches);
    // A request must not carry more tools than the provider takes: what would pass it is not loaded.
    const maxTools = this.provider()?.maxTools;
    if (maxTools !== undefined) {
      const room = Math.max(maxTools - offer.sent.length, 0);
      const fresh = loaded.filter((tool) => !offer.found.includes(tool));
      if (fresh.length > room) {
        const dropped = new Set(fresh.slice(room));
        loaded = loaded.filter((tool) => !dropped.has(tool));
      }
    }
    const added = this.conversation.addFound(loaded.map((tool) => tool.name));
    this.context.onFound({ turn: this.turn, engine: "local", query, found: added });
    return {
      found: loaded,
      others: matches.map((match) => match.definition).filter((tool) => !loaded.includes(tool)),
      searched: index.size,
    };
  }
}

/** A match scoring at least this share of the best one is loaded; the rest are only listed. */
const STRONG_MATCH_SHARE = 0.6;

/**
 * The matches to load: tools named exactly, or the best match and those close to it. A precise
 * query (`create github issue`) loads one tool, a vague one (`read a file`) several; the others
 * are listed for the model to load by name, so a search does not leave definitions in every
 * later request that nothing calls.
 */
function strongMatches(matches: readonly ToolSearchMatch[]): ToolDefinition[] {
  const best = matches[0]?.score ?? 0;
  return matches
    .filter((match) => match.score === Infinity || match.score >= best * STRONG_MATCH_SHARE)
    .map((match) => match.definition);
}
