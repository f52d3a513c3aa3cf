import { createHash } from "node:crypto";
import type { Diagnostic, LoadedConfig } from "@pseudoclaude/core";
import { type ConsentSubject, consentSubject } from "@pseudoclaude/core/consent";
import {
  blockingDiagnostic,
  type ConfigSectionSpec,
  type SectionEntry,
  validateSection,
} from "@pseudoclaude/core/plugin";
import { z } from "zod";
import {
  CLOSED_BY_DEFAULT,
  DISABLE_ALL_KEY,
  HOOK_EVENTS,
  type HookEvent,
  MANAGED_ONLY_KEY,
  ON_FAILURE_KEY,
} from "./hook-events.js";
import {
  applyHookSwitches,
  type HookScope,
  type HookSwitchValues,
  hookScope,
} from "./hook-switches.js";
import { reportUnsupportedEvents } from "./unsupported-hook-events.js";

export { HOOK_EVENTS, type HookEvent } from "./hook-events.js";
export type { HookScope } from "./hook-switches.js";

/** Config section `hooks`, in the format Claude Code uses. */
export const HOOKS_SECTION = "hooks";

/** Hooks of every layer add up, event by event; a guard that cannot be read fails closed. */
export const HOOKS_SECTION_SPEC: ConfigSectionSpec = {
  key: HOOKS_SECTION,
  owner: "hooks",
  additive: [...HOOK_EVENTS],
  restricts: true,
};

/**
 * One hook. Only `type: command` runs here; Claude Code's other kinds (`http`, `prompt`,
 * `agent`) pass the check so that one of them does not drop the whole file's hooks, and are
 * reported one by one as `hook_type_unsupported`.
 */
const commandSchema = z
  .object({
    type: z.string(),
    command: z.string().optional(),
    /** Seconds, as Claude Code counts them. Default 60. */
    timeout: z.number().positive().optional(),
    /** Ours: what a failure (crash, timeout, an exit other than 0 and 2) does. */
    on_failure: z.enum(["block", "continue"]).optional(),
  })
  .loose()
  .superRefine((hook, context) => {
    if (hook.type === "command" && !hook.command)
      context.addIssue({
        code: "custom",
        path: ["command"],
        message: "a command hook needs a non-empty command",
      });
  });

const matcherSchema = z
  .object({
    matcher: z.string().optional(),
    hooks: z.array(commandSchema),
  })
  .loose();

/**
 * The events we run and our settings are checked; any other key is reported as an unsupported
 * event.
 */
const sectionSchema = z
  .object({
    ...(Object.fromEntries(
      HOOK_EVENTS.map((event) => [event, z.array(matcherSchema).optional()]),
    ) as {
      [E in HookEvent]: z.ZodOptional<z.ZodArray<typeof matcherSchema>>;
    }),
    [ON_FAILURE_KEY]: z.enum(["block", "continue"]).optional(),
    [DISABLE_ALL_KEY]: z.boolean().optional(),
    [MANAGED_ONLY_KEY]: z.boolean().optional(),
  })
  .loose();

/** One hook command, from whichever layer, ready to run. */
export interface HookCommand {
  event: HookEvent;
  /** Claude Code's matcher: a regular expression over tool names; empty or `*` for all. */
  matcher: string;
  command: string;
  timeoutMs: number;
  onFailure: "block" | "continue";
  /**
   * `claude-code`: from a Claude Code settings file, run with Claude Code's exit codes (a
   * failure is a non-blocking error unless `on_failure: block`). `config`: from our own
   * config, where a guard that breaks fails closed.
   */
  origin: "claude-code" | "config";
  /** Whose it is: the administrator's (managed settings), the user's, or the workspace's. */
  layer: HookScope;
  file: string;
  /** 1-based line of the command in its file, when known. */
  line?: number;
  /** Set for a project hook: the user's approval it needs before it may run. */
  approval?: ConsentSubject;
}

/**
 * Every hook command of the `hooks` section of the config's layers: ours, and Claude Code's
 * settings files when the config was loaded with them (`claudeCodeLayers()`: the user's
 * `~/.claude/settings.json`, the workspace's `.claude/settings.json` and
 * `.claude/settings.local.json`, and managed settings), in the layers' order, so hooks people
 * already wrote work unchanged. Reading those files is the config loader's alone; a broken one is
 * its diagnostic. What does not fit the format is a diagnostic at its line; an event we do not
 * run is `hook_event_unsupported`; the rest still loads. The hooks `disable_all` and
 * `managed_only` turn off are left out, with a word (see `applyHookSwitches`).
 */
export function loadHookCommands(
  config: LoadedConfig,
  report: (diagnostic: Diagnostic) => void,
): HookCommand[] {
  const sources = config.section(HOOKS_SECTION);
  const ours = (source: SectionEntry) => source.origin !== "claude-code";
  // Any layer of ours may make Claude Code's hooks fail closed (narrowing); none can loosen ours.
  const claudeOnFailure = sources.some(
    (source) => ours(source) && sectionOnFailure(source.value) === "block",
  )
    ? "block"
    : "continue";
  const commands: HookCommand[] = [];
  const switches: Array<{ source: SectionEntry; value: HookSwitchValues }> = [];
  for (const source of sources) {
    reportUnsupportedEvents(source, ours(source), report);
    const parsed = validateSection(sectionSchema, source, {
      sectionKey: HOOKS_SECTION,
      source: "hooks",
    });
    if (!parsed.ok) {
      for (const diagnostic of parsed.diagnostics) {
        const problem: Diagnostic = {
          ...diagnostic,
          code: "hooks_invalid",
          message: `The hooks of ${source.file} do not fit the format (${diagnostic.message}); they are not loaded.`,
        };
        // Our own config's hooks may be guards: a run without them would be less restricted.
        // Claude Code's settings.json is that program's to check (it has hook kinds we do not run).
        report(
          ours(source) && HOOKS_SECTION_SPEC.restricts ? blockingDiagnostic(problem) : problem,
        );
      }
      continue;
    }
    switches.push({ source, value: parsed.value });
    commands.push(...sectionCommands(source, parsed.value, claudeOnFailure, report));
  }
  return applyHookSwitches(commands, switches, report);
}

/** The command hooks of one layer's section, each checked and placed at its line. */
function sectionCommands(
  source: SectionEntry,
  section: z.infer<typeof sectionSchema>,
  claudeOnFailure: "block" | "continue",
  report: (diagnostic: Diagnostic) => void,
): HookCommand[] {
  const origin = source.origin === "claude-code" ? "claude-code" : "config";
  const commands: HookCommand[] = [];
  for (const event of HOOK_EVENTS) {
    for (const [index, group] of (section[event] ?? []).entries()) {
      const matcher = group.matcher ?? "";
      try {
        matcherPattern(matcher);
      } catch (error) {
        const position = source.locate([event, index, "matcher"]);
        (origin === "config" ? (d: Diagnostic) => report(blockingDiagnostic(d)) : report)({
          stage: "config",
          severity: "error",
          code: "hooks_invalid",
          layer: source.layer,
          source: "hooks",
          ...position,
          message: `Hook matcher ${JSON.stringify(matcher)} in ${source.file} is not a regular expression (${(error as Error).message}); its hooks are not loaded.`,
        });
        continue;
      }
      for (const [position, hook] of group.hooks.entries()) {
        if (hook.type !== "command" || !hook.command) {
          report({
            stage: "config",
            severity: "warning",
            code: "hook_type_unsupported",
            layer: source.layer,
            source: "hooks",
            item: `${event}:${hook.type}`,
            ...source.locate([event, index, "hooks", position, "type"]),
            message: `A ${JSON.stringify(hook.type)} hook of ${event} in ${source.file} does not run here: only command hooks do.`,
          });
          continue;
        }
        const line = source.locate([event, index, "hooks", position, "command"]).line;
        const command: HookCommand = {
          event,
          matcher,
          command: hook.command,
          timeoutMs: Math.round((hook.timeout ?? 60) * 1000),
          onFailure:
            hook.on_failure ??
            (origin === "claude-code"
              ? claudeOnFailure
              : CLOSED_BY_DEFAULT.includes(event)
                ? "block"
                : "continue"),
          origin,
          layer: hookScope(source),
          file: source.file,
          ...(line !== undefined ? { line } : {}),
        };
        // The workspace's hooks wait for the user's consent; the user's and managed ones do not.
        if (command.layer === "project") command.approval = hookSubject(command);
        commands.push(command);
      }
    }
  }
  return commands;
}

/** The section's own `on_failure` key, when it is one of the two values. */
function sectionOnFailure(value: unknown): "block" | "continue" | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const setting = (value as Record<string, unknown>)[ON_FAILURE_KEY];
  return setting === "block" || setting === "continue" ? setting : undefined;
}

/** A project hook as the consent store knows it: a changed command asks again. */
export function hookSubject(
  command: Pick<HookCommand, "event" | "matcher" | "command">,
): ConsentSubject {
  const what = { event: command.event, matcher: command.matcher, command: command.command };
  return consentSubject({
    kind: "hook",
    name: `hook:${command.event}:${createHash("sha256").update(command.command).digest("hex").slice(0, 8)}`,
    covers: what,
    summary: `${command.event}${command.matcher ? ` (${command.matcher})` : ""}: ${command.command}`,
    effects: [
      `runs ${command.command} on your machine at every ${command.event}`,
      // These two can answer an approval in your place: say so where you approve them.
      ...(command.event === "PreToolUse" || command.event === "PermissionRequest"
        ? ["may approve or deny tool calls for you"]
        : []),
    ],
    legacyDigests: [`sha256:${createHash("sha256").update(JSON.stringify(what)).digest("hex")}`],
  });
}

/** Claude Code's matcher as a pattern: empty or `*` matches every tool, else the whole name. */
export function matcherPattern(matcher: string): RegExp | undefined {
  if (matcher === "" || matcher === "*") return undefined;
  return new RegExp(`^(?:${matcher})$`);
}
