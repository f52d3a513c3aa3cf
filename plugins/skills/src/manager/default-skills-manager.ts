import os from "node:os";
import { type Diagnostic, UsageError } from "@pseudoclaude/core";
import type { WorkspaceConsent } from "@pseudoclaude/core/consent";
import type {
  Disposable,
  PolicyLayer,
  SkillCatalog,
  StaticToolSource,
  SystemPromptSection,
} from "@pseudoclaude/core/plugin";
import type { ProcessRunner } from "@pseudoclaude/core/process";
import { EventEmitter } from "eventemitter3";
import { catalogSkills } from "../discovery/catalog-skills.js";
import { scanSkills } from "../discovery/scan-skills.js";
import type { SkillRecord } from "../discovery/skill-record.js";
import { skillRoots } from "../discovery/skill-roots.js";
import { SkillWatcher } from "../discovery/skill-watcher.js";
import { SKILLS_SOURCE } from "../format/parse-skill-file.js";
import type { CodeSkill, SkillsSettings } from "../settings/skills-settings.js";
import type { SkillsUsageErrorCode } from "../skills-errors.js";
import { scriptTools } from "../tools/script-tool.js";
import { type SkillFiles, skillFilesOf } from "./bundled-files.js";
import { countSkills } from "./count-skills.js";
import { fingerprint, type LoadedEntry, loadedSkill } from "./loaded-entry.js";
import { fetchRemoteSkill } from "./remote-skill.js";
import { skillInfo } from "./skill-info.js";
import { loadableRecord } from "./skill-load-checks.js";
import { SkillMetaTools, skillFolder } from "./skill-meta-tools.js";
import { type SkillPermissions, skillPermissions, skillPolicyLayer } from "./skill-permissions.js";
import { SkillsIndexSection, skillOrigin } from "./skills-index-section.js";
import type {
  LoadedSkill,
  SkillInfo,
  SkillLoader,
  SkillsManager,
  SkillsManagerEvents,
} from "./skills-manager.js";

/** What the manager is built from; the plugin passes the kernel's parts by hand. */
export interface SkillsManagerDeps {
  /** Real path of the workspace. */
  workspace: string;
  home?: string;
  settings: SkillsSettings;
  /** The user's approvals for the workspace: a project skill's allowed-tools need one. */
  consent?: WorkspaceConsent;
  codeSkills: readonly CodeSkill[];
  /**
   * The agent's skill catalog: layers other plugins add (an MCP server's skills) join the
   * index after the folders' skills, under their layer's name.
   */
  catalog?: SkillCatalog;
  /** The `skills` tool source; the manager pushes every tool change through it. */
  source: StaticToolSource;
  runner: ProcessRunner;
  addPolicyLayer(layer: PolicyLayer): Disposable;
  addSystemPromptSection(section: Omit<SystemPromptSection, "source">): Disposable;
  report(diagnostic: Diagnostic): void;
}

/** A served skill loaded by code or a reload (no call's timeout applies) waits at most this. */
const REMOTE_LOAD_TIMEOUT_MS = 30_000;

export class DefaultSkillsManager
  extends EventEmitter<SkillsManagerEvents>
  implements SkillsManager
{
  private records: SkillRecord[] = [];
  private readonly permissions = new Map<SkillRecord, SkillPermissions>();
  private readonly loaded = new Map<string, LoadedEntry>();
  private readonly loading = new Map<string, Promise<LoadedSkill>>();
  private readonly reported = new Set<string>();
  private readonly home: string;
  private watcher: SkillWatcher | undefined;
  private refreshing: Promise<void> = Promise.resolve();
  private readonly index: SkillsIndexSection;
  private closed = false;
  private readonly catalogEvents: Disposable[] = [];
  private readonly metaTools: SkillMetaTools;

  constructor(private readonly deps: SkillsManagerDeps) {
    super();
    this.home = deps.home ?? os.homedir();
    this.index = new SkillsIndexSection({
      settings: deps.settings,
      addSystemPromptSection: (section) => deps.addSystemPromptSection(section),
      reportOnce: (diagnostic) => this.reportOnce(diagnostic),
    });
    this.metaTools = new SkillMetaTools({
      source: deps.source,
      readMaxBytes: deps.settings.readMaxBytes,
      load: (skill, signal) => this.load(skill, { by: "model", signal }),
      unload: (skill) => this.unload(skill),
      loadedNames: () => [...this.loaded.keys()],
      folderOf: (skill) => skillFolder(skill, [...this.loaded.keys()], this.winner(skill)),
    });
    const catalog = deps.catalog;
    if (catalog) {
      // A layer that comes, lists again or goes is looked at again, as a changed folder is.
      const again = () => this.refreshInBackground("Reading the skill catalog again");
      for (const event of ["layer-added", "layer-changed", "layer-removed"] as const)
        this.catalogEvents.push(catalog.on(event, again));
    }
  }

  /** Scan again in the background; a failure is said (`skills_rescan_failed`), never thrown. */
  private refreshInBackground(what: string): void {
    this.refresh().catch((error: unknown) =>
      this.deps.report({
        stage: "skills",
        severity: "error",
        code: "skills_rescan_failed",
        source: SKILLS_SOURCE,
        message: `${what} failed: ${(error as Error).message}`,
      }),
    );
  }

  /**
   * Resolves once every catalog layer's listing in flight is done and the skills reflect it:
   * a run waits for this, so its first model request sees the skills of servers just started.
   */
  async settled(): Promise<void> {
    await this.deps.catalog?.whenSettled();
    await this.refreshing;
  }

  /** First scan, then follow the folders (unless `watch` is off). */
  async start(): Promise<void> {
    await this.refresh();
    if (!this.deps.settings.watch || this.closed) return;
    this.watcher = new SkillWatcher(
      () => this.roots().map((root) => root.dir),
      () => this.refreshInBackground("Rescanning the skill folders"),
    );
    this.watcher.sync();
  }

  list(): readonly SkillInfo[] {
    return this.records.map((record) => this.info(record));
  }

  modelIndex(): string | undefined {
    return this.index.content;
  }

  get(name: string): SkillInfo | undefined {
    const record = this.winner(name);
    return record ? this.info(record) : undefined;
  }

  refresh(): Promise<void> {
    // One rescan at a time, in order: a burst of changes never interleaves two of them. The
    // catalog's listings in flight finish first, so a refresh sees what servers list now.
    const next = this.refreshing
      .then(() => this.deps.catalog?.whenSettled())
      .then(() => this.rescan());
    this.refreshing = next.catch(() => {});
    return next;
  }

  async load(
    name: string,
    options: { by?: SkillLoader; signal?: AbortSignal } = {},
  ): Promise<LoadedSkill> {
    await this.refreshing;
    const pending = this.loading.get(name);
    if (pending) return pending.then((loaded) => ({ ...loaded, alreadyLoaded: true }));
    const work = this.loadNow(name, options.by ?? "code", {
      ...(options.signal ? { signal: options.signal } : {}),
    }).finally(() => this.loading.delete(name));
    this.loading.set(name, work);
    return work;
  }

  unload(name: string): boolean {
    return this.unloadNow(name, "request");
  }

  /** Unload everything and stop watching; nothing the plugin started outlives this. */
  close(): void {
    this.closed = true;
    for (const subscription of this.catalogEvents) subscription.dispose();
    this.watcher?.close();
    for (const name of [...this.loaded.keys()]) this.unloadNow(name, "closed");
    this.index.dispose();
    this.removeAllListeners();
  }

  /** Skills by state, for the source's status (which adds its tool count). */
  counts(): Record<string, number> {
    return countSkills(this.list());
  }

  private roots() {
    return skillRoots(this.deps.workspace, this.home, this.deps.settings);
  }

  private winner(name: string): SkillRecord | undefined {
    return this.records.find((record) => record.document && record.name === name);
  }

  private async rescan(): Promise<void> {
    if (this.closed) return;
    const scan = await scanSkills(
      this.roots(),
      this.deps.codeSkills,
      this.deps.settings,
      this.deps.workspace,
    );
    if (this.closed) return;
    const served = catalogSkills(this.deps.catalog, this.deps.settings);
    this.records = [...scan.skills, ...served.skills];
    this.permissions.clear();
    const diagnostics = [...scan.diagnostics, ...served.diagnostics];
    for (const record of this.records) {
      if (!record.document) continue;
      const permissions = skillPermissions(record, this.deps.settings, this.deps.consent);
      this.permissions.set(record, permissions);
      record.diagnostics.push(...permissions.diagnostics);
      diagnostics.push(...permissions.diagnostics);
    }
    for (const diagnostic of diagnostics) this.reportOnce(diagnostic);
    await this.reconcileLoaded();
    this.updateMetaTools();
    this.updateIndex();
    this.watcher?.sync();
    this.emit("changed", { skills: this.list() });
  }

  /** Loaded skills follow their files: gone or disabled ones unload, changed ones rebuild. */
  private async reconcileLoaded(): Promise<void> {
    for (const [name, entry] of [...this.loaded]) {
      const record = this.winner(name);
      if (!record?.enabled) {
        this.unloadNow(name, "removed");
        continue;
      }
      const files = await this.filesOf(record);
      if (fingerprint(record, files, this.permissions.get(record)) === entry.fingerprint) continue;
      this.unloadNow(name, "removed", { quiet: true });
      try {
        await this.loadNow(name, entry.by, { quiet: true });
      } catch (error) {
        // A served skill whose new content fails its checks stays unloaded; the rest goes on.
        this.deps.report({
          stage: "skills",
          severity: "warning",
          code: "skill_reload_failed",
          source: SKILLS_SOURCE,
          item: name,
          message: `Skill "${name}" changed and could not be loaded again: ${(error as Error).message}`,
        });
        this.emit("unloaded", { skill: entry.skill, tools: entry.tools, reason: "removed" });
      }
    }
  }

  private async loadNow(
    name: string,
    by: SkillLoader,
    options: { quiet?: boolean; signal?: AbortSignal } = {},
  ): Promise<LoadedSkill> {
    if (this.closed)
      throw new UsageError<SkillsUsageErrorCode>(
        "skills_closed",
        "The agent is closed; skills cannot be loaded.",
      );
    const winner = loadableRecord(name, by, {
      first: this.records.find((candidate) => candidate.name === name),
      winner: this.winner(name),
      skills: () => this.list(),
    });
    const existing = this.loaded.get(name);
    if (existing) return loadedSkill(this.info(winner), existing, true);
    // A served skill is read now, and only used if it is what its listing promised.
    const document = winner.remote
      ? await fetchRemoteSkill(
          winner,
          options.signal ?? AbortSignal.timeout(REMOTE_LOAD_TIMEOUT_MS),
        )
      : winner.document;
    const files = await this.filesOf(winner);
    const permissions = this.permissions.get(winner) ?? {
      patterns: [],
      honoured: false,
      diagnostics: [],
    };
    const tools = await scriptTools(files.scripts, {
      skill: name,
      dir: winner.dir,
      workspace: this.deps.workspace,
      runner: this.deps.runner,
      maxOutputChars: this.deps.settings.maxOutputChars,
      killGraceMs: this.deps.settings.killGraceMs,
    });
    const entry: LoadedEntry = {
      by,
      skill: this.info(winner),
      files,
      body: document.body,
      tools: tools.map((tool) => tool.definition.name),
      fingerprint: fingerprint(winner, files, permissions),
    };
    const layer = skillPolicyLayer(name, permissions, entry.tools, this.deps.settings);
    if (layer) entry.layer = this.deps.addPolicyLayer(layer);
    // The model reads a procedure it loaded in the tool's result; one a person or code loaded
    // reaches it through the system prompt.
    if (by !== "model")
      entry.section = this.deps.addSystemPromptSection({
        id: `skills:loaded:${name}`,
        title: `Skill "${name}" (loaded)`,
        content: document.body.trim() || document.description,
        order: 60,
      });
    this.loaded.set(name, entry);
    if (tools.length > 0) this.deps.source.upsert(...tools);
    this.updateMetaTools();
    const loaded = loadedSkill(this.info(winner), entry, false);
    if (!options.quiet) {
      this.emit("loaded", { skill: loaded.skill, by, tools: entry.tools });
      this.emit("changed", { skills: this.list() });
    }
    return loaded;
  }

  private unloadNow(
    name: string,
    reason: "request" | "removed" | "closed",
    options: { quiet?: boolean } = {},
  ): boolean {
    const entry = this.loaded.get(name);
    if (!entry) return false;
    this.loaded.delete(name);
    entry.layer?.dispose();
    entry.section?.dispose();
    if (entry.tools.length > 0 && reason !== "closed") this.deps.source.remove(...entry.tools);
    if (reason === "closed" || options.quiet) return true;
    this.updateMetaTools();
    const record = this.winner(name);
    const skill = record
      ? this.info(record)
      : { ...entry.skill, state: "invalid" as const, tools: [] };
    this.emit("unloaded", { skill, tools: entry.tools, reason });
    this.emit("changed", { skills: this.list() });
    return true;
  }

  /** Keep the meta-tools in step with what the model may load and what is loaded. */
  private updateMetaTools(): void {
    if (this.closed) return;
    const loadable = this.modelLoadable().map((record) => record.name);
    this.metaTools.update(loadable, this.loaded.size > 0);
  }

  /** The skills the model may load: readable, enabled, model-invocable, each name's winner. */
  private modelLoadable(): SkillRecord[] {
    return this.records.filter(
      (record) =>
        record.document?.modelInvocable && record.enabled && this.winner(record.name) === record,
    );
  }

  /** The index section: every skill the model may load, within the budget. */
  private updateIndex(): void {
    if (this.closed) return;
    this.index.update(
      this.modelLoadable().map((record) => ({
        name: record.name,
        description: record.document?.description ?? "",
        origin: skillOrigin(record, this.deps.workspace, this.home),
      })),
    );
  }

  private filesOf(record: SkillRecord): Promise<SkillFiles> {
    return skillFilesOf(record, (diagnostic) => this.reportOnce(diagnostic));
  }

  private info(record: SkillRecord): SkillInfo {
    const loaded =
      record.document && this.winner(record.name) === record
        ? this.loaded.get(record.name)
        : undefined;
    return skillInfo(record, this.permissions.get(record), loaded);
  }

  private reportOnce(diagnostic: Diagnostic): void {
    // A rescan finds the same problems again; each is reported once per agent.
    const key = `${diagnostic.code}\u0000${diagnostic.file ?? ""}\u0000${diagnostic.item ?? ""}\u0000${diagnostic.message}`;
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.deps.report(diagnostic);
  }
}
