import type { EventEmitter } from "eventemitter3";
import { type AgentEvents, RUN_EVENT_NAMES, type SubAgentTag } from "../contracts/agent-events.js";
import type { HookScope } from "../contracts/agent-hooks.js";
import type { PolicyEngine } from "../contracts/policy-engine.js";
import type { Provider } from "../contracts/provider.js";
import { PolicyLayers } from "../policy/policy-layer.js";
import type { AgentTracer } from "../tracing/agent-tracer.js";
import type { AgentSettings, ForkOptions } from "./agent.js";

/** What a fork reads of its parent: where its run's span hangs, and whose session it is in. */
export interface ForkParent {
  readonly tracer: AgentTracer;
  hookScope(): Omit<HookScope, "signal">;
}

/** How deep a fork is, and the parent it reports its events to. */
export interface ForkLink {
  depth: number;
  tag: SubAgentTag;
  parent: ForkParent;
}

/** What a child differs from its parent in: its policy layers, model, settings and link. */
export interface ForkedParts {
  policy: PolicyEngine;
  layers: PolicyLayers;
  providerRef: { provider: Provider | undefined };
  settings: AgentSettings;
  fork: ForkLink;
}

/**
 * The parts of a child of an agent: over the parent's whole policy (its layers included), so a
 * child can only narrow it, with the tools it may use as a layer of its own; another model if
 * asked; its own name, instructions and turn limit.
 */
export function forkedParts(
  parent: {
    depth: number;
    policy: PolicyEngine;
    provider: Provider | undefined;
    settings: AgentSettings;
    link: ForkParent;
  },
  options: ForkOptions,
): ForkedParts {
  const layers = new PolicyLayers(parent.settings.workspace);
  if (options.tools) layers.add({ origin: `sub-agent ${options.name}`, only: options.tools });
  const tag: SubAgentTag = {
    agent: options.name,
    depth: parent.depth + 1,
    parentCallId: options.parentCallId,
  };
  return {
    policy: parent.policy,
    layers,
    providerRef: { provider: options.provider ?? parent.provider },
    settings: {
      ...parent.settings,
      name: options.name,
      systemPrompt: options.instructions,
      maxTurns: options.maxTurns ?? parent.settings.maxTurns,
    },
    fork: { depth: tag.depth, tag, parent: parent.link },
  };
}

/** Re-emit every run event of `child` on `parent`, tagged; a grandchild's keep their own tag. */
export function forwardEvents(
  child: EventEmitter<AgentEvents>,
  parent: EventEmitter<AgentEvents>,
  tag: SubAgentTag,
): void {
  const emit = parent.emit.bind(parent) as (event: string, payload: unknown) => boolean;
  for (const event of RUN_EVENT_NAMES)
    child.on(event, ((payload: Record<string, unknown>) =>
      emit(event, payload.via ? payload : { ...payload, via: tag })) as never);
}

/** A sub-agent's hooks see the parent's session and the tag that says which sub-agent runs. */
export function forkHookScope(
  workspace: string,
  sessionId: string | undefined,
  link: ForkLink | undefined,
): Omit<HookScope, "signal"> {
  if (!link) return { workspace, sessionId };
  return { workspace, sessionId: link.parent.hookScope().sessionId, subAgent: link.tag };
}
