import type { RunResult } from "../agent/agent.js";
import type {
  AfterToolCallContext,
  AgentHooks,
  BeforeApprovalContext,
  BeforeCompactionContext,
  BeforeModelRequestContext,
  BeforeRunContext,
  BeforeToolCallContext,
  HookNote,
  HookScope,
} from "../contracts/agent-hooks.js";
import type { Diagnostic } from "../contracts/diagnostic.js";
import type { ToolResult } from "../contracts/tool-result.js";
import { errorMessage } from "../errors.js";
import { type Disposable, toDisposable } from "../util/disposable.js";

type Stage = keyof AgentHooks;
// biome-ignore lint/suspicious/noExplicitAny: each stage's functions are typed by AgentHooks.
type AnyHook = (...args: any[]) => unknown;

/** What the `beforeToolCall` hooks decided together. */
export interface BeforeToolCallOutcome {
  deny?: string;
  allow: boolean;
  /** The arguments after every rewrite, when some hook rewrote them. */
  arguments?: unknown;
  notes: HookNote[];
}

/**
 * The agent's hooks, from code and from plugins, in order. With none registered for a stage
 * the agent skips it without a single await, so hooks cost nothing until someone adds one.
 * Guards fail closed: a `beforeToolCall` or `beforeRun` hook that throws denies.
 */
export class HookList {
  private readonly sets: Array<{ label: string; hooks: AgentHooks }> = [];

  constructor(private readonly report: (diagnostic: Diagnostic) => void) {}

  /** Each stage's hooks with their names, made when first asked for after a change. */
  private readonly byStage = new Map<Stage, ReadonlyArray<{ name: string; fn: AnyHook }>>();

  add(hooks: AgentHooks, label: string): Disposable {
    const entry = { label, hooks };
    this.sets.push(entry);
    this.byStage.clear();
    return toDisposable(() => {
      const index = this.sets.indexOf(entry);
      if (index >= 0) this.sets.splice(index, 1);
      this.byStage.clear();
    });
  }

  has(stage: Stage): boolean {
    return this.each(stage).length > 0;
  }

  async beforeRun(context: BeforeRunContext): Promise<{ deny?: string; context: string[] }> {
    const added: string[] = [];
    for (const { name, fn } of this.each("beforeRun")) {
      let outcome: unknown;
      try {
        outcome = await fn(context);
      } catch (error) {
        return {
          deny: `Hook ${name} failed, so the prompt was blocked: ${errorMessage(error)}`,
          context: added,
        };
      }
      const result = outcome as { action?: string; reason?: string; context?: string } | undefined;
      if (result?.action === "deny")
        return { deny: result.reason ?? `Blocked by hook ${name}.`, context: added };
      if (typeof result?.context === "string" && result.context) added.push(result.context);
    }
    return { context: added };
  }

  async beforeToolCall(context: BeforeToolCallContext): Promise<BeforeToolCallOutcome> {
    const verdict: BeforeToolCallOutcome = { allow: false, notes: [] };
    let current = context;
    for (const { name, fn } of this.each("beforeToolCall")) {
      let outcome: unknown;
      try {
        outcome = await fn(current);
      } catch (error) {
        const reason = `Hook ${name} failed, so the call was blocked: ${errorMessage(error)}`;
        verdict.notes.push({ hook: name, stage: "beforeToolCall", action: "failed", reason });
        verdict.deny = reason;
        return verdict;
      }
      const result = outcome as
        | { action?: string; reason?: string; arguments?: unknown }
        | undefined;
      const reason = typeof result?.reason === "string" ? { reason: result.reason } : {};
      if (result?.action === "deny") {
        verdict.deny = result.reason || `Blocked by hook ${name}.`;
        verdict.notes.push({
          hook: name,
          stage: "beforeToolCall",
          action: "deny",
          reason: verdict.deny,
        });
        return verdict;
      }
      if (result?.action === "allow") {
        verdict.allow = true;
        verdict.notes.push({ hook: name, stage: "beforeToolCall", action: "allow", ...reason });
      } else if (result?.action === "rewrite") {
        verdict.notes.push({
          hook: name,
          stage: "beforeToolCall",
          action: "rewrite",
          ...reason,
          originalArguments: current.call.arguments,
        });
        verdict.arguments = result.arguments;
        current = { ...current, call: { ...current.call, arguments: result.arguments } };
      }
    }
    return verdict;
  }

  async afterToolCall(
    context: AfterToolCallContext,
  ): Promise<{ result: ToolResult; notes: HookNote[] }> {
    const notes: HookNote[] = [];
    let result = context.result;
    for (const { name, fn } of this.each("afterToolCall")) {
      try {
        const outcome = (await fn(result === context.result ? context : { ...context, result })) as
          | { action?: string; result?: ToolResult; reason?: string }
          | undefined;
        if (outcome?.action === "rewrite" && outcome.result) {
          result = outcome.result;
          notes.push({
            hook: name,
            stage: "afterToolCall",
            action: "rewrite",
            ...(outcome.reason ? { reason: outcome.reason } : {}),
          });
        }
      } catch (error) {
        // The call already ran: its result stands, and the failure is said.
        notes.push({
          hook: name,
          stage: "afterToolCall",
          action: "failed",
          reason: errorMessage(error),
        });
        this.failed(name, "afterToolCall", error);
      }
    }
    return { result, notes };
  }

  async beforeModelRequest(context: BeforeModelRequestContext): Promise<string | undefined> {
    let system: string | undefined;
    for (const { name, fn } of this.each("beforeModelRequest")) {
      try {
        const outcome = (await fn(system === undefined ? context : { ...context, system })) as
          | { system?: string }
          | undefined;
        if (typeof outcome?.system === "string") system = outcome.system;
      } catch (error) {
        this.failed(name, "beforeModelRequest", error);
      }
    }
    return system;
  }

  async afterRun(result: RunResult, scope: HookScope): Promise<void> {
    for (const { name, fn } of this.each("afterRun")) {
      try {
        await fn(result, scope);
      } catch (error) {
        this.failed(name, "afterRun", error);
      }
    }
  }

  /**
   * The first hook that answers in the person's place decides; none: the person is asked. A
   * hook that throws denies (it stands where a person would have said no).
   */
  async beforeApproval(
    context: BeforeApprovalContext,
  ): Promise<{ verdict: "allow" | "deny"; reason?: string; hook: string } | undefined> {
    for (const { name, fn } of this.each("beforeApproval")) {
      let outcome: unknown;
      try {
        outcome = await fn(context);
      } catch (error) {
        return {
          verdict: "deny",
          reason: `Hook ${name} failed, so the call was denied: ${errorMessage(error)}`,
          hook: name,
        };
      }
      const result = outcome as { action?: string; reason?: string } | undefined;
      if (result?.action === "allow" || result?.action === "deny")
        return {
          verdict: result.action,
          ...(typeof result.reason === "string" ? { reason: result.reason } : {}),
          hook: name,
        };
    }
    return undefined;
  }

  /** Whether the summary may go ahead: a hook's `skip` stops it; a hook that throws is reported and ignored. */
  async beforeCompaction(context: BeforeCompactionContext): Promise<{ skip?: string }> {
    for (const { name, fn } of this.each("beforeCompaction")) {
      try {
        const outcome = (await fn(context)) as { action?: string; reason?: string } | undefined;
        if (outcome?.action === "skip") return { skip: outcome.reason ?? `skipped by ${name}` };
      } catch (error) {
        this.failed(name, "beforeCompaction", error);
      }
    }
    return {};
  }

  /**
   * The hooks of a stage, in order, named for diagnostics. Kept until hooks are added or
   * removed: a call with hooks asks for them several times, and a list replaced (never
   * changed in place) is also the snapshot a running stage iterates.
   */
  private each(stage: Stage): ReadonlyArray<{ name: string; fn: AnyHook }> {
    let found = this.byStage.get(stage);
    if (!found) {
      const list: Array<{ name: string; fn: AnyHook }> = [];
      for (const { label, hooks } of this.sets) {
        const value = hooks[stage];
        if (value === undefined) continue;
        const fns = (Array.isArray(value) ? value : [value]) as AnyHook[];
        for (const [index, fn] of fns.entries())
          list.push({
            name: fn.name ? `${label}:${fn.name}` : `${label}:${stage}#${index + 1}`,
            fn,
          });
      }
      found = list;
      this.byStage.set(stage, found);
    }
    return found;
  }

  private failed(name: string, stage: Stage, error: unknown): void {
    this.report({
      stage: "hooks",
      severity: "error",
      code: "hook_failed",
      item: name,
      message: `Hook ${name} (${stage}) failed: ${errorMessage(error)}`,
    });
  }
}
