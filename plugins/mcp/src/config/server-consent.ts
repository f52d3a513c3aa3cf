import { createHash } from "node:crypto";
import path from "node:path";
import { type ConsentSubject, canonicalJson, consentSubject } from "@pseudoclaude/core/consent";
import { expandVariables, isPlainObject, variableNames } from "@pseudoclaude/core/plugin";

/**
 * Keys of a server entry that cannot widen what it does: how long to wait, how much output to
 * keep, whether its instructions are shown. Every other key (what runs, where it connects,
 * what it is sent, every setting that relaxes a check) is covered by the approval's digest.
 */
const HARMLESS_KEYS = new Set([
  "connect_timeout_ms",
  "call_timeout_ms",
  "task_timeout_ms",
  "max_output_chars",
  "instructions",
  "enabled",
  "protocol",
  "logging",
]);

/** Keys that relax checks on the server's word or reach more of the user's: not in older digests. */
const SAFETY_KEYS = [
  "tools",
  "trust_annotations",
  "read_only_tools",
  "read_only",
  "sampling",
  "oauth",
] as const;

/**
 * What the user approves for a server the workspace's files ask for: every project server,
 * stdio, HTTP and SSE alike (an HTTP server is a stranger's host that would receive the user's
 * arguments). The digest covers the entry as written, `${VAR}` templates included, and the
 * names of the variables it would expand, so a changed command, URL, header or safety setting
 * asks again while a rotated secret does not.
 */
export function serverSubject(
  name: string,
  value: unknown,
  options: { workspace: string; env: NodeJS.ProcessEnv },
): ConsentSubject {
  const entry = isPlainObject(value) ? value : {};
  const covers: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(entry))
    if (!HARMLESS_KEYS.has(key)) covers[key] = field;
  const variables = [...new Set(stringsOf(covers).flatMap(variableNames))].sort();
  covers.variables = variables;
  const legacy = legacyDigest(entry, options);
  return consentSubject({
    kind: "mcp_server",
    name,
    covers,
    summary: summaryOf(entry),
    effects: effectsOf(entry, variables),
    ...(legacy ? { legacyDigests: [legacy] } : {}),
  });
}

function summaryOf(entry: Record<string, unknown>): string {
  if (typeof entry.command === "string") {
    const args = Array.isArray(entry.args) ? entry.args.map(String) : [];
    return [entry.command, ...args].map(shellWord).join(" ");
  }
  return `${String(entry.url ?? "(no url)")} (${String(entry.type ?? "http")})`;
}

function effectsOf(entry: Record<string, unknown>, variables: readonly string[]): string[] {
  const effects: string[] = [];
  if (typeof entry.command === "string")
    effects.push(`runs ${shellWord(entry.command)} on your machine`);
  else if (typeof entry.url === "string")
    effects.push(`sends the agent's calls to ${hostOf(entry.url)}`);
  if (variables.length > 0) effects.push(`passes it your ${variables.join(", ")}`);
  if (entry.inherit_env === true) effects.push("passes it your whole environment");
  if (entry.read_only === true || entry.trust_annotations === true || entry.read_only_tools)
    effects.push("runs tools it declares read-only with no question");
  if (entry.sampling === true) effects.push("lets it ask your model for completions");
  // A workload assertion read from a file goes to the server's authorization server: a file
  // the workspace names (any file of yours) is sent, so the approval says which.
  const oauth = isPlainObject(entry.oauth) ? entry.oauth : undefined;
  if (typeof oauth?.assertion_file === "string")
    effects.push(`sends the contents of ${oauth.assertion_file} to its authorization server`);
  return effects;
}

function hostOf(url: string): string {
  // A templated URL is shown as written: its host comes from the user's environment.
  if (url.includes("${")) return url;
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

function stringsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (isPlainObject(value)) return Object.values(value).flatMap(stringsOf);
  return [];
}

/**
 * The digest an older release approved this server under, when that approval still means the
 * same: only for an entry with none of the safety keys older digests left out, so an approval
 * carries over but never covers a `read_only: true` added since.
 */
function legacyDigest(
  entry: Record<string, unknown>,
  options: { workspace: string; env: NodeJS.ProcessEnv },
): string | undefined {
  if (SAFETY_KEYS.some((key) => entry[key] !== undefined)) return undefined;
  const expand = (text: unknown) =>
    typeof text === "string" ? expandVariables(text, options.env).value : text;
  let what: Record<string, unknown>;
  if (typeof entry.command === "string") {
    what = {
      transport: "stdio",
      command: expand(entry.command),
      args: Array.isArray(entry.args) ? entry.args.map(expand) : [],
      cwd: typeof entry.cwd === "string" ? path.resolve(options.workspace, entry.cwd) : null,
      env: isPlainObject(entry.env) ? entry.env : {},
      inherit_env: entry.inherit_env === true,
    };
  } else if (typeof entry.url === "string") {
    what = {
      transport: entry.type === "sse" ? "sse" : "http",
      url: expand(entry.url),
      headers: isPlainObject(entry.headers) ? entry.headers : {},
    };
  } else return undefined;
  return `sha256:${createHash("sha256").update(canonicalJson(what)).digest("hex")}`;
}

function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}
