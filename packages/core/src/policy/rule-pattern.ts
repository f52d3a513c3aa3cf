import { realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import picomatch from "picomatch";
import type { ToolDefinition } from "../contracts/tool-definition.js";
import { ConfigError } from "../errors.js";
import { isPlainObject } from "../util/plain-object.js";
import { commandDenyMatch, commandMatches } from "./command-match.js";

/**
 * A parsed rule pattern: `TOOL_GLOB` or `TOOL_GLOB(ARGUMENT_PATTERN)`, e.g.
 * `mcp__context7__*`, `run_command(npm test*)`, `write_file(src/**)`.
 */
export interface RulePattern {
  raw: string;
  /**
   * Whether the rule names this tool: by its name or one of its aliases (`Bash`), and as
   * Claude Code's rules mean them (`Edit` names every tool that edits files; `mcp__github`
   * every tool of that server).
   */
  matchesTool(tool: Pick<ToolDefinition, "name" | "aliases" | "category">): boolean;
  /** Undefined when the rule has no argument part (it matches every call of the tool). */
  argument?: string;
}

const NAME_PATTERN = /^[^()\s]+$/;

/** `mcp__<server>` with no tool part and no glob: a rule for every tool of the server. */
const MCP_SERVER_RULE = /^mcp__(?:(?!__)[A-Za-z0-9_-])+$/;

export function parseRulePattern(raw: string): RulePattern {
  const text = raw.trim();
  const open = text.indexOf("(");
  let name = text;
  let argument: string | undefined;
  if (open !== -1) {
    if (!text.endsWith(")")) {
      throw new ConfigError("invalid_rule", `Rule "${raw}" opens "(" but does not end with ")".`);
    }
    name = text.slice(0, open);
    argument = text.slice(open + 1, -1).trim();
    if (argument === "") {
      throw new ConfigError("invalid_rule", `Rule "${raw}" has an empty argument pattern "()".`);
    }
  }
  if (!NAME_PATTERN.test(name)) {
    throw new ConfigError(
      "invalid_rule",
      `Rule "${raw}" must start with a tool name or glob (no spaces or parentheses), like "mcp__context7__*" or "run_command(npm test*)".`,
    );
  }
  const isMatch = picomatch(name, { dot: true });
  // `mcp__<server>` alone is the whole server in Claude Code, as `mcp__<server>__*` is here.
  const server = MCP_SERVER_RULE.test(name) ? picomatch(`${name}__*`, { dot: true }) : undefined;
  // Claude Code's `Edit` rules cover every tool that edits files (Write, MultiEdit too).
  const edits = name === "Edit";
  const pattern: RulePattern = {
    raw: text,
    matchesTool: (tool) =>
      isMatch(tool.name) ||
      (tool.aliases?.some((alias) => isMatch(alias)) ?? false) ||
      (server?.(tool.name) ?? false) ||
      (edits && tool.category === "edit"),
  };
  if (argument !== undefined) pattern.argument = argument;
  return pattern;
}

/**
 * Whether a rule's argument pattern matches a call. `strict` is used for allow and ask rules:
 * an argument that cannot be fully understood (a compound or substituted command) does not
 * match, so it falls through to asking. Deny rules are not strict: any part matching denies.
 */
export function argumentMatches(
  pattern: RulePattern,
  tool: ToolDefinition,
  args: unknown,
  workspace: string,
  strict: boolean,
): boolean {
  if (pattern.argument === undefined) return true;
  const key = tool.permissionKey;
  if (!key || !isPlainObject(args)) return false;
  const value = args[key.argument];
  if (typeof value !== "string") return false;
  switch (key.match) {
    case "command":
      return commandMatches(pattern.argument, value, strict ? "every" : "any");
    case "path":
      return pathMatches(pattern.argument, value, workspace, strict);
    case "glob":
      return picomatch(pattern.argument, { dot: true })(value);
  }
}

/**
 * Whether a deny rule's command pattern meets a command it can neither match nor rule out:
 * one that builds what it runs at run time (`$(...)`, an unknown `$VAR` as the program).
 */
export function argumentUnclearForDeny(
  pattern: RulePattern,
  tool: ToolDefinition,
  args: unknown,
): boolean {
  const key = tool.permissionKey;
  if (pattern.argument === undefined || key?.match !== "command" || !isPlainObject(args))
    return false;
  const value = args[key.argument];
  return typeof value === "string" && commandDenyMatch(pattern.argument, value) === "unclear";
}

/**
 * gitignore-style: a pattern without `/` matches the file name at any depth; a leading `/`
 * anchors to the workspace root; `**` crosses directories. Paths are relative to the workspace.
 * A path is judged both as written and as its real target (symbolic links resolved), so a link
 * cannot carry a call past a deny rule: deny rules match if either form matches, allow and ask
 * rules only if both do.
 */
function pathMatches(written: string, value: string, workspace: string, strict: boolean): boolean {
  const expanded = absolutePattern(written);
  const pattern = expanded ?? written;
  const lexical = path.resolve(workspace, value);
  const real = realTarget(lexical);
  const forms =
    real === lexical
      ? [{ target: lexical, root: workspace }]
      : [
          { target: lexical, root: workspace },
          { target: real, root: realTarget(workspace) },
        ];
  return strict
    ? forms.every((form) => matchesForm(pattern, form.target, form.root, strict, !!expanded))
    : forms.some((form) => matchesForm(pattern, form.target, form.root, strict, !!expanded));
}

/**
 * Claude Code's absolute forms, as absolute patterns: `~/x` in the user's home, `//x` from the
 * file system's root. (A single leading `/` stays anchored to the workspace, as in gitignore.)
 */
function absolutePattern(pattern: string): string | undefined {
  if (pattern.startsWith("~/"))
    return `${os.homedir().split(path.sep).join("/")}/${pattern.slice(2)}`;
  if (pattern.startsWith("//")) return pattern.slice(1);
  return undefined;
}

function matchesForm(
  pattern: string,
  absolute: string,
  workspace: string,
  strict: boolean,
  /** The pattern was one of Claude Code's absolute forms, not a workspace-anchored `/x`. */
  fromHomeOrRoot: boolean,
): boolean {
  const relative = path.relative(workspace, absolute).split(path.sep).join("/");
  const outside = relative.startsWith("..") || path.isAbsolute(relative);
  if (fromHomeOrRoot && !outside)
    // An absolute pattern (`~/.ssh/**`) means the same file inside the workspace as outside.
    return picomatch(pattern, { dot: true, nocase: !strict })(absolute);
  if (outside) {
    // An outside path can only ever be matched by an absolute pattern, and never leniently.
    return path.isAbsolute(pattern) && !strict
      ? picomatch(pattern, { dot: true, nocase: true })(absolute)
      : false;
  }
  const anchored = pattern.startsWith("/") ? pattern.slice(1) : pattern;
  const basename = !pattern.includes("/");
  // Deny rules ignore case: on a case-insensitive file system `SECRETS/key` is `secrets/key`.
  return picomatch(anchored, { dot: true, basename, nocase: !strict })(
    relative === "" ? "." : relative,
  );
}

/** The real path of the nearest existing ancestor, with the rest of the path appended. */
function realTarget(absolute: string): string {
  let existing = absolute;
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(realpathSync(existing), ...rest.reverse());
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) return absolute;
      rest.push(path.basename(existing));
      existing = parent;
    }
  }
}
