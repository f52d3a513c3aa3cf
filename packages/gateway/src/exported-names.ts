import {
  hashedToolName,
  MAX_TOOL_NAME_LENGTH,
  sanitizeToolName,
  VALID_TOOL_NAME,
} from "@pseudoclaude/core/plugin";
import type { GatewaySettings } from "./gateway-section.js";

/**
 * Exported names for registry names: renamed by the first `gateway.rename` rule that matches,
 * then held to the kernel's one tool-name rule (which MCP's allows: letters, digits, `_`, `-`,
 * at most 64), and kept apart with the kernel's hashed name when two would meet. The same
 * registry, in the same order, gets the same names.
 */
export class ExportedNames {
  private readonly rules: ReadonlyArray<{ match: RegExp; to: string }>;

  constructor(rename: GatewaySettings["rename"]) {
    this.rules = rename.map(({ from, to }) => ({ match: ruleRegExp(from), to }));
  }

  /** Exported name of each registry name, in order. */
  assign(registryNames: readonly string[]): Map<string, string> {
    const taken = new Set<string>();
    const names = new Map<string, string>();
    for (const name of registryNames) {
      const wanted = this.renamed(name);
      let exported = VALID_TOOL_NAME.test(wanted)
        ? wanted
        : sanitizeToolName(wanted).slice(0, MAX_TOOL_NAME_LENGTH) || "_";
      if (taken.has(exported) || exported !== wanted) exported = hashedToolName(wanted, name);
      taken.add(exported);
      names.set(name, exported);
    }
    return names;
  }

  private renamed(name: string): string {
    for (const rule of this.rules) {
      const found = rule.match.exec(name);
      if (found) return rule.to.replace("*", found[1] ?? "");
    }
    return name;
  }
}

function ruleRegExp(pattern: string): RegExp {
  const star = pattern.indexOf("*");
  if (star === -1) return new RegExp(`^${escapeRegExp(pattern)}()$`);
  return new RegExp(
    `^${escapeRegExp(pattern.slice(0, star))}(.*)${escapeRegExp(pattern.slice(star + 1))}$`,
  );
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
