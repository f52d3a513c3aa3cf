import { createHash } from "node:crypto";
import os from "node:os";
import path from "node:path";
import type { Diagnostic, LoadedConfig } from "@pseudoclaude/core";
import { type ConsentSubject, consentSubject } from "@pseudoclaude/core/consent";
import {
  blockingDiagnostic,
  type ConfigSectionSpec,
  loadConfigFile,
  type SectionEntry,
  validateSection,
} from "@pseudoclaude/core/plugin";
import { z } from "zod";

/** The events of Claude Code's hooks that have a place in this loop. */
export const HOOK_EVENTS = ["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop"] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** Config section `hooks`, in the format Claude Code uses. */
export const HOOKS_SECTION = "hooks";

/** Hooks of every layer add up, event by event; a guard that cannot be read fails closed. */
export const HOOKS_SECTION_SPEC: ConfigSectionSpec = {
  key: HOOKS_SECTION,
  owner: "hooks",
  additive: [...HOOK_EVENTS],
  restricts: true,
};

const commandSchema = z
  .object({
    type: z.literal("command"),
    command: z.string().min(1),
    /** Seconds, as Claude Code counts them. Default 60. */
    timeout: z.number().positive().optional(),
    /** Ours: what a failure (crash, timeout, an exit other than 0 and 2) does. */
    on_failure: z.enum(["block", "continue"]).optional(),
  })
  .loose();

const matcherSchema = z
  .object({
    matcher: z.string().optional(),
    hooks: z.array(commandSchema),
  })
  .loose();

/** Our events checked; Claude Code's other events (Notification, SessionStart…) pass unread. */
const sectionSchema = z
  .object(
    Object.fromEntries(HOOK_EVENTS.map((event) => [event, z.array(matcherSchema).optional()])) as {
      [E in HookEvent]: z.ZodOptional<z.ZodArray<typeof matcherSchema>>;
    },
  )
  .loose();

/** One hook command, from whichever layer, ready to run. */
export interface HookCommand {
  event: HookEvent;
  /** Claude Code's matcher: a regular expression over tool names; empty or `*` for all. */
  matcher: string;
  command: string;
  timeoutMs: number;
  onFailure: "block" | "continue";
  layer: "user" | "project";
  file: string;
  /** Set for a project hook: the user's approval it needs before it may run. */
  approval?: ConsentSubject;
}

/**
 * Every hook command: the `hooks` section of the PseudoClaude config layers, and the `hooks`
 * of Claude Code's `settings.json` (the user's `~/.claude/settings.json`, the workspace's
 * `.claude/settings.json`), so hooks people already wrote work unchanged. What does not fit the
 * format is a diagnostic with its file; the rest still loads.
 */
export function loadHookCommands(
  config: LoadedConfig,
  workspace: string,
  report: (diagnostic: Diagnostic) => void,
  homeDir: string = os.homedir(),
): HookCommand[] {
  const sources: SectionEntry[] = [];
  // Claude Code's settings are read as a config file too, so what does not fit is placed at
  // its line; a broken settings.json is Claude Code's to report, so only a warning here.
  const claude = (layer: "user" | "project", file: string) => {
    const loaded = loadConfigFile(layer, file, file);
    for (const diagnostic of loaded.diagnostics)
      report({
        ...diagnostic,
        severity: "warning",
        code: "hooks_invalid",
        message: `${diagnostic.message.replace(/\.?$/, ".")} Its hooks are not loaded.`,
      });
    sources.push(...loaded.section(HOOKS_SECTION));
  };
  claude("user", path.join(homeDir, ".claude", "settings.json"));
  const own = config.section(HOOKS_SECTION);
  const ownConfig = new Set<SectionEntry>(own);
  sources.push(...own);
  claude("project", path.join(workspace, ".claude", "settings.json"));
  const commands: HookCommand[] = [];
  for (const source of sources) {
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
          ownConfig.has(source) && HOOKS_SECTION_SPEC.restricts
            ? blockingDiagnostic(problem)
            : problem,
        );
      }
      continue;
    }
    for (const event of HOOK_EVENTS) {
      for (const [index, group] of (parsed.value[event] ?? []).entries()) {
        const matcher = group.matcher ?? "";
        try {
          matcherPattern(matcher);
        } catch (error) {
          const position = source.locate([event, index, "matcher"]);
          (ownConfig.has(source) ? (d: Diagnostic) => report(blockingDiagnostic(d)) : report)({
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
        for (const hook of group.hooks) {
          const command: HookCommand = {
            event,
            matcher,
            command: hook.command,
            timeoutMs: Math.round((hook.timeout ?? 60) * 1000),
            // A guard that breaks must not let the call through: blocking is the default for
            // the events that can block.
            onFailure:
              hook.on_failure ??
              (event === "PreToolUse" || event === "UserPromptSubmit" ? "block" : "continue"),
            layer: source.layer,
            file: source.file,
          };
          if (source.layer === "project") command.approval = hookSubject(command);
          commands.push(command);
        }
      }
    }
  }
  return commands;
}

/** A project hook as the consent store knows it: a changed command asks again. */
export function hookSubject(command: Omit<HookCommand, "approval">): ConsentSubject {
  const what = { event: command.event, matcher: command.matcher, command: command.command };
  return consentSubject({
    kind: "hook",
    name: `hook:${command.event}:${createHash("sha256").update(command.command).digest("hex").slice(0, 8)}`,
    covers: what,
    summary: `${command.event}${command.matcher ? ` (${command.matcher})` : ""}: ${command.command}`,
    effects: [`runs ${command.command} on your machine at every ${command.event}`],
    legacyDigests: [`sha256:${createHash("sha256").update(JSON.stringify(what)).digest("hex")}`],
  });
}

/** Claude Code's matcher as a pattern: empty or `*` matches every tool, else the whole name. */
export function matcherPattern(matcher: string): RegExp | undefined {
  if (matcher === "" || matcher === "*") return undefined;
  return new RegExp(`^(?:${matcher})$`);
}
