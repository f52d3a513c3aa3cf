import { EventEmitter } from "eventemitter3";
import type { Diagnostic } from "../contracts/diagnostic.js";
import type { Tool } from "../contracts/tool.js";
import type { ToolCall } from "../contracts/tool-call.js";
import type { ToolDefinition } from "../contracts/tool-definition.js";
import { toolFailure } from "../contracts/tool-result.js";
import type { ToolChange } from "../contracts/tool-source.js";
import { objectInputSchema } from "../tools/input-schema.js";
import { isRegistrableToolName } from "../tools/tool-name.js";
import { checkArguments } from "./argument-check.js";
import { withCallMetadata } from "./call-metadata.js";
import type { ApplyChangeOutcome, CallPreparation, ToolRegistryEvents } from "./tool-registry.js";

/**
 * The registry's store: the tools every source pushed, under names checked on entry, with a
 * version every change bumps and an event for each. It also routes a call to its tool and
 * checks the arguments (`prepare`), because both read only what it holds.
 */
export class ToolStore extends EventEmitter<ToolRegistryEvents> {
  /**
   * The tools as the registry offers them, by name: the source's own, or a view with a
   * repaired schema. Nothing else per tool: a source may push thousands, and a record per tool
   * would be 48 bytes each (the source is the definition's, checked on entry).
   */
  private readonly entries = new Map<string, Tool>();
  /** The tool as its source pushed it, for the few offered as a view: tells a re-push apart. */
  private readonly pushedOf = new Map<string, Tool>();
  private readonly bySource = new Map<string, Set<string>>();
  private cachedList: readonly Tool[] | undefined;
  private cachedDefinitions: readonly ToolDefinition[] | undefined;
  private currentVersion = 0;

  get version(): number {
    return this.currentVersion;
  }

  applyChange(sourceId: string, change: ToolChange): ApplyChangeOutcome {
    const outcome: ApplyChangeOutcome = {
      source: sourceId,
      added: [],
      removed: [],
      replaced: [],
      rejected: [],
      version: this.currentVersion,
    };
    const owned = this.bySource.get(sourceId) ?? new Set<string>();
    const upserts = change.kind === "full" ? change.tools : (change.upsert ?? []);
    const accepted = new Map<string, Tool>();
    for (const tool of upserts) {
      const reason = this.rejectionReason(sourceId, tool, accepted);
      if (reason) {
        outcome.rejected.push(reason);
        continue;
      }
      accepted.set(tool.definition.name, tool);
    }
    const removals =
      change.kind === "full"
        ? [...owned].filter((name) => !accepted.has(name))
        : (change.remove ?? []).filter((name) => owned.has(name) && !accepted.has(name));

    for (const name of removals) {
      const tool = this.entries.get(name);
      if (!tool) continue;
      this.entries.delete(name);
      this.pushedOf.delete(name);
      owned.delete(name);
      outcome.removed.push(name);
      this.emit("tool-removed", { definition: tool.definition });
    }
    // A source may push thousands of tools at once: an event's payload is made only for its
    // listeners, and the views' map is touched only when it holds any.
    const announceAdded = this.listenerCount("tool-added") > 0;
    const announceReplaced = this.listenerCount("tool-replaced") > 0;
    for (const [name, pushed] of accepted) {
      const previous = this.entries.get(name);
      if (previous && (this.pushedOf.get(name) ?? previous) === pushed) continue;
      const tool = withObjectSchema(pushed);
      this.entries.set(name, tool);
      if (tool !== pushed) this.pushedOf.set(name, pushed);
      else if (this.pushedOf.size > 0) this.pushedOf.delete(name);
      owned.add(name);
      if (previous) {
        outcome.replaced.push(name);
        if (announceReplaced)
          this.emit("tool-replaced", {
            previous: previous.definition,
            definition: tool.definition,
          });
      } else {
        outcome.added.push(name);
        if (announceAdded) this.emit("tool-added", { definition: tool.definition });
      }
    }
    if (owned.size > 0) this.bySource.set(sourceId, owned);
    else this.bySource.delete(sourceId);

    for (const diagnostic of outcome.rejected) this.emit("diagnostic", diagnostic);
    if (outcome.added.length + outcome.removed.length + outcome.replaced.length > 0) {
      this.currentVersion += 1;
      this.cachedList = undefined;
      this.cachedDefinitions = undefined;
      outcome.version = this.currentVersion;
      this.emit("changed", {
        source: sourceId,
        added: outcome.added,
        removed: outcome.removed,
        replaced: outcome.replaced,
        version: outcome.version,
      });
    }
    return outcome;
  }

  removeSource(sourceId: string): ApplyChangeOutcome {
    return this.applyChange(sourceId, { kind: "full", tools: [] });
  }

  get(name: string): Tool | undefined {
    return this.entries.get(name);
  }

  list(): readonly Tool[] {
    this.cachedList ??= [...this.entries.values()];
    return this.cachedList;
  }

  toolsOf(sourceId: string): readonly Tool[] {
    const owned = this.bySource.get(sourceId);
    if (!owned) return [];
    return [...owned].flatMap((name) => {
      const tool = this.entries.get(name);
      return tool ? [tool] : [];
    });
  }

  definitions(): readonly ToolDefinition[] {
    this.cachedDefinitions ??= this.list().map((tool) => tool.definition);
    return this.cachedDefinitions;
  }

  prepare(call: ToolCall): CallPreparation {
    const started = performance.now();
    const tool = this.entries.get(call.name);
    if (!tool) {
      const result = toolFailure("unknown_tool", `Unknown tool "${call.name}".`);
      const facts = { tool: call.name, callId: call.id };
      return { kind: "unknown", result: withCallMetadata(result, facts, started) };
    }
    return checkArguments(call, tool, started);
  }

  private rejectionReason(
    sourceId: string,
    tool: Tool,
    acceptedInThisChange: Map<string, Tool>,
  ): Diagnostic | undefined {
    const name = tool?.definition?.name;
    if (!isRegistrableToolName(name))
      return rejection(
        sourceId,
        "invalid_tool_name",
        String(name ?? ""),
        `Tool from source "${sourceId}" has an empty or blank name; skipped.`,
      );
    if (tool.definition.source !== sourceId)
      // The policy, the listings and the registry's own bookkeeping go by the definition's
      // source: a tool that names another one would be judged and removed as someone else's.
      return rejection(
        sourceId,
        "tool_source_mismatch",
        name,
        `Tool "${name}" from source "${sourceId}" says its source is "${String(tool.definition.source)}"; skipped. Set the tool's source to "${sourceId}" (defineTool's \`source\`).`,
        "error",
      );
    if (acceptedInThisChange.has(name))
      return rejection(
        sourceId,
        "duplicate_tool_name",
        name,
        `Source "${sourceId}" offered "${name}" twice; kept the first.`,
      );
    const existing = this.entries.get(name)?.definition.source;
    if (existing !== undefined && existing !== sourceId)
      return rejection(
        sourceId,
        "duplicate_tool_name",
        name,
        `Tool "${name}" from source "${sourceId}" collides with the same name from source "${existing}"; skipped.`,
      );
    return undefined;
  }
}

/** A tool the registry turned away, as the diagnostic that says why. */
function rejection(
  source: string,
  code: string,
  item: string,
  message: string,
  severity: "warning" | "error" = "warning",
): Diagnostic {
  return { stage: "register", severity, source, code, item, message };
}

/**
 * Tools enter the registry with an input schema every model API takes (see
 * `objectInputSchema`); this is the one place that repair happens. A tool that needs none is
 * kept as it is.
 */
function withObjectSchema(tool: Tool): Tool {
  const inputSchema = objectInputSchema(tool.definition.inputSchema);
  if (inputSchema === tool.definition.inputSchema) return tool;
  const view: Tool = {
    definition: { ...tool.definition, inputSchema },
    execute: (args, context) => tool.execute(args, context),
  };
  if (tool.validate) view.validate = (args) => tool.validate!(args);
  if (tool.offeredDefinition)
    view.offeredDefinition = (sent) => ({ ...tool.offeredDefinition!(sent), inputSchema });
  return view;
}
