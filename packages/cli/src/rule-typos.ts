import type { LoadedConfig } from "@pseudoclaude/core";
import { suggestTool } from "./suggestions.js";

/** A permission rule whose tool name is no registered tool but is close to one. */
export interface RuleTypo {
  /** Where it is: `permissions.allow[0]`. */
  path: string;
  file: string;
  line?: number;
  rule: string;
  suggestion: string;
}

const LISTS = ["tools", "allow", "ask", "deny"] as const;

/**
 * Rules of the `permissions` section that name a tool nobody registered, when a registered
 * one is within two edits: `run_comand(npm test*)` allows nothing, silently, and the person
 * keeps being asked. Globs are left alone (they are meant to match many, or none yet), and so
 * are names close to nothing (a server that did not start, a skill's tool not loaded yet):
 * only a likely typo is worth a warning.
 */
export function ruleTypos(config: LoadedConfig, tools: readonly string[]): RuleTypo[] {
  const typos: RuleTypo[] = [];
  for (const entry of config.section<Record<string, unknown>>("permissions")) {
    for (const list of LISTS) {
      const rules = entry.value?.[list];
      if (!Array.isArray(rules)) continue;
      rules.forEach((rule: unknown, index) => {
        if (typeof rule !== "string") return;
        const name = rule.trim().split("(", 1)[0] ?? "";
        if (name === "" || /[*?[\]{}!]/.test(name) || tools.includes(name)) return;
        const suggestion = suggestTool(name, tools);
        if (suggestion === undefined) return;
        const position = entry.locate([list, index]);
        typos.push({
          path: `permissions.${list}[${index}]`,
          file: position.file,
          ...(position.line !== undefined ? { line: position.line } : {}),
          rule,
          suggestion,
        });
      });
    }
  }
  return typos;
}

/** One line for people: where, what, and what was probably meant. */
export function ruleTypoText(typo: RuleTypo): string {
  const where = `${typo.file}${typo.line !== undefined ? `:${typo.line}` : ""}`;
  return `warning: ${typo.path} "${typo.rule}" (${where}) names no tool. Did you mean "${typo.suggestion}"? pseudoclaude tools lists them.`;
}
