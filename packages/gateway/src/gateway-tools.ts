import { type Agent, PolicyEngine, type ToolDefinition } from "@pseudoclaude/core";
import { visibleToModel } from "@pseudoclaude/core/plugin";
import { EventEmitter } from "eventemitter3";
import { listedUiMeta } from "./app-views.js";
import { ExportedNames } from "./exported-names.js";
import { type ExposureTest, exposureTest } from "./exposure.js";
import type { GatewaySettings } from "./gateway-section.js";
import { honestAnnotations } from "./honest-annotations.js";

/** A registry tool as clients see it. */
export interface ExposedTool {
  /** The name clients call it by. */
  readonly name: string;
  readonly definition: ToolDefinition;
}

/** Where a tool came from, in every exported tool's `_meta` (for clients and audits). */
export const SOURCE_META_KEY = "dev.pseudoclaude/source";
/** The tool's name in the agent's registry, in its `_meta`. */
export const REGISTRY_NAME_META_KEY = "dev.pseudoclaude/tool";

/** An MCP `Tool` as `tools/list` carries it. */
export interface ListedTool {
  name: string;
  title?: string;
  description: string;
  inputSchema: { type: "object"; [key: string]: unknown };
  annotations: ReturnType<typeof honestAnnotations>;
  icons?: ToolDefinition["icons"];
  _meta: Record<string, unknown>;
}

export type TaskSupport = "optional" | "required";

/**
 * Whether a registry tool may or must run as a task: what its MCP server declared. 2026-07-28
 * lists no such field (the server decides per call), so the gateway keeps it to itself and
 * acts on it: a task for clients with the Tasks extension, `-32021` for a required one without.
 */
export function taskSupportOf(definition: ToolDefinition): TaskSupport | undefined {
  const support = definition.meta?.task_support;
  return support === "optional" || support === "required" ? support : undefined;
}

/**
 * The tools the gateway exports, kept in step with the agent's registry: a server joining or
 * leaving, a skill loaded, an MCP server's own list change. `changed` fires when what clients
 * would list is different. Tools the policy never offers (plan mode, denied by name) are not
 * exported either. Tools only an MCP App's view may call are kept apart: listed and callable
 * only for clients that render views (`withApps`), never found by search.
 */
export class GatewayTools extends EventEmitter<{ changed: [] }> {
  private readonly exposed: ExposureTest;
  private readonly names: ExportedNames;
  private readonly policy: PolicyEngine;
  private byName = new Map<string, ExposedTool>();
  /** Tools only views may call (`audience: ["app"]`). */
  private appOnly = new Map<string, ExposedTool>();
  private allTools: ExposedTool[] | undefined;
  private listed: ListedTool[] | undefined;
  private listedWithApps: ListedTool[] | undefined;
  private version = -1;
  private readonly onRegistryChange = () => this.refresh();
  /** MCP Apps carried to clients (`gateway.apps`): views' meta and the tools only views call. */
  private readonly apps: boolean;

  /**
   * @param serverOrder the agent's MCP servers in the order of the config: their tools are
   *   listed in that order (after every other source's), not in the order the servers happened
   *   to connect, so `tools/list` is the same from one start to the next.
   */
  constructor(
    private readonly agent: Agent,
    settings: Pick<GatewaySettings, "expose" | "rename"> & Partial<Pick<GatewaySettings, "apps">>,
    private readonly serverOrder: () => readonly string[] = () => [],
  ) {
    super();
    this.exposed = exposureTest(settings.expose);
    this.names = new ExportedNames(settings.rename);
    this.apps = settings.apps ?? false;
    this.policy = agent.resolve<PolicyEngine>(PolicyEngine);
    agent.registry.on("changed", this.onRegistryChange);
    this.refresh();
  }

  /**
   * The exported tool of that name, if clients may call it; with `withApps` (a client that
   * renders views) also a tool only views may call.
   */
  get(name: string, withApps = false): ExposedTool | undefined {
    if (this.version !== this.agent.registry.version) this.refresh();
    return this.byName.get(name) ?? (withApps && this.apps ? this.appOnly.get(name) : undefined);
  }

  /**
   * Every exported tool, in listing order: a new array exactly when what clients would list
   * changes, so a caller can key what it derives (a search index) on it.
   */
  all(): readonly ExposedTool[] {
    if (this.version !== this.agent.registry.version) this.refresh();
    this.allTools ??= [...this.byName.values()];
    return this.allTools;
  }

  /** What `tools/list` answers, made once per change; `withApps` adds the views' own tools. */
  list(withApps = false): readonly ListedTool[] {
    const all = this.all();
    const listed = (tool: ExposedTool) => listedTool(tool, this.apps);
    this.listed ??= all.map(listed);
    if (!withApps || !this.apps || this.appOnly.size === 0) return this.listed;
    this.listedWithApps ??= [...this.listed, ...[...this.appOnly.values()].map(listed)];
    return this.listedWithApps;
  }

  close(): void {
    this.agent.registry.off("changed", this.onRegistryChange);
    this.removeAllListeners();
  }

  private refresh(): void {
    this.version = this.agent.registry.version;
    const definitions = inConfigOrder(
      this.agent.registry
        .definitions()
        .filter((definition) => this.exposed(definition) && this.policy.isOffered(definition)),
      this.serverOrder(),
    );
    const names = this.names.assign(definitions.map((definition) => definition.name));
    const next = new Map<string, ExposedTool>();
    const apps = new Map<string, ExposedTool>();
    for (const definition of definitions) {
      const name = names.get(definition.name) as string;
      // An app-only tool is its views' (MCP Apps): no client's model is shown it.
      (visibleToModel(definition) ? next : apps).set(name, { name, definition });
    }
    if (sameTools(this.byName, next) && sameTools(this.appOnly, apps)) return;
    this.byName = next;
    this.appOnly = apps;
    this.allTools = undefined;
    this.listed = undefined;
    this.listedWithApps = undefined;
    this.emit("changed");
  }
}

/**
 * Tools of MCP servers after the rest, server by server in config order (a server's own tools
 * in its order); the rest as the registry has them. A stable sort keeps each group's order.
 */
function inConfigOrder(
  definitions: readonly ToolDefinition[],
  servers: readonly string[],
): ToolDefinition[] {
  if (servers.length < 2) return [...definitions];
  const rank = new Map(servers.map((server, index) => [`mcp:${server}`, index + 1]));
  return definitions
    .map((definition, index) => ({ definition, index, rank: rank.get(definition.source) ?? 0 }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map(({ definition }) => definition);
}

function sameTools(a: Map<string, ExposedTool>, b: Map<string, ExposedTool>): boolean {
  if (a.size !== b.size) return false;
  const before = [...a.values()];
  let index = 0;
  // The order is part of what clients see: the same tools in a new order is a change.
  for (const [name, tool] of b) {
    const was = before[index++];
    if (was?.name !== name || was.definition !== tool.definition) return false;
  }
  return true;
}

/** An exported tool as `tools/list` carries it; with `apps`, its MCP App view's meta too. */
export function listedTool({ name, definition }: ExposedTool, apps = false): ListedTool {
  const tool: ListedTool = {
    name,
    description: definition.description,
    inputSchema: { ...definition.inputSchema, type: "object" },
    annotations: honestAnnotations(definition),
    _meta: { [SOURCE_META_KEY]: definition.source, [REGISTRY_NAME_META_KEY]: definition.name },
  };
  if (definition.title) tool.title = definition.title;
  if (definition.icons?.length) tool.icons = definition.icons;
  // An MCP App's view and audience, with the view's URI as this gateway serves it.
  const ui = apps ? listedUiMeta(definition) : undefined;
  if (ui) tool._meta.ui = ui;
  return tool;
}
