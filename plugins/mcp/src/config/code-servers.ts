import { CONFIG_PARSE, didYouMean } from "@pseudoclaude/core/plugin";
import type { RawServerEntry } from "./server-config.js";
import {
  entrySchemaFor,
  httpEntrySchema,
  serverEntrySchema,
  stdioEntrySchema,
} from "./server-config.js";

/** `call_timeout_ms` → `callTimeoutMs`, as a type. */
export type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;

/** Maps whose keys are the user's own (variable and header names): never renamed. */
export type OwnKeys = "env" | "headers";

/** A config entry's keys in camelCase, recursively, except inside `env` and `headers`. */
export type CamelKeys<T> = {
  [K in keyof T as K extends string ? CamelCase<K> : K]: K extends OwnKeys
    ? T[K]
    : CamelValue<T[K]>;
};
/** A value of `CamelKeys`: objects renamed in turn, arrays as they are. */
export type CamelValue<V> = V extends readonly unknown[] ? V : V extends object ? CamelKeys<V> : V;

/** Each transport's entry with `type` optional (a `command` means stdio, a `url` http). */
export type OptionalType<T> = T extends { type: infer Type }
  ? Omit<T, "type"> & { type?: Type }
  : never;

/**
 * A server given in code (`mcp({ servers: { name: … } })`): the keys of a `mcp_servers` entry
 * (see docs/mcp.md) in camelCase, typed per transport: `{ command, args, env, cwd,
 * inheritEnv }` for stdio, `{ url, headers, oauth }` for `http`/`sse`, and what both take
 * (`callTimeoutMs`, `readOnly`, `tools: { allow, deny }`, `protocol`, …). Config files' snake_case
 * keys are accepted too.
 */
export type McpServerOptions = CamelKeys<OptionalType<RawServerEntry>>;

/** A server as a config file writes it (snake_case keys), `type` optional. */
export type McpServerEntry = OptionalType<RawServerEntry>;

const CAMEL_HUMP = /[A-Z]/g;

/** `callTimeoutMs` → `call_timeout_ms`, recursively, except inside `env` and `headers`. */
function snakeKeys(value: unknown, renamed: Map<string, string>): unknown {
  if (Array.isArray(value) || value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => {
      const snake = key.replace(CAMEL_HUMP, (letter) => `_${letter.toLowerCase()}`);
      if (snake !== key) renamed.set(snake, key);
      return [snake, key === "env" || key === "headers" ? inner : snakeKeys(inner, renamed)];
    }),
  );
}

let allKeys: string[] | undefined;

/** Every key an entry may have (both transports, and the `oauth` keys), as written in code. */
function knownKeys(): string[] {
  if (allKeys) return allKeys;
  // The discriminated union's options are the transports' object schemas.
  const keys = new Set<string>();
  for (const option of serverEntrySchema().options)
    for (const key of Object.keys(option.shape)) keys.add(camel(key));
  allKeys = [...keys];
  return allKeys;
}

/**
 * The keys of the transport an entry says it is, as written in code. They are looked in first:
 * an entry with none but these needs no other transport's schema built (an agent of stdio
 * servers builds no HTTP or OAuth one).
 */
function transportKeys(type: unknown): readonly string[] {
  if (type !== "stdio" && type !== "http" && type !== "sse") return [];
  const { shape } = type === "stdio" ? stdioEntrySchema() : httpEntrySchema();
  return Object.keys(shape).map(camel);
}

function camel(key: string): string {
  return key.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());
}

/** Servers from code as config entries, and what is wrong with each that is left out. */
export interface CodeServers {
  servers: Record<string, unknown>;
  /** One sentence per mistake, naming the server and the key as written in code. */
  problems: Array<{ server: string; message: string }>;
}

/**
 * Servers from code as config entries (snake_case), checked: a server with a mistake (an
 * unknown key, with a suggestion; no `command` or `url`; a wrong value) is left out and named
 * in `problems`, which the plugin reports as blocking, so `createAgent` throws instead of
 * giving an agent that silently lacks the server. Call it once zod is loaded (in `register`).
 */
export function codeServers(servers: Record<string, unknown>): CodeServers {
  const result: CodeServers = { servers: {}, problems: [] };
  if (servers === null || typeof servers !== "object" || Array.isArray(servers)) {
    result.problems.push({
      server: "",
      message: "mcp({ servers }): servers must be an object of server names to settings.",
    });
    return result;
  }
  for (const [name, given] of Object.entries(servers)) {
    const problems = checkServer(name, given);
    if (problems.entry === undefined)
      for (const message of problems.messages) result.problems.push({ server: name, message });
    else result.servers[name] = problems.entry;
  }
  return result;
}

function checkServer(name: string, given: unknown): { entry?: unknown; messages: string[] } {
  const where = `mcp({ servers }): server "${name}"`;
  const renamed = new Map<string, string>();
  const entry = snakeKeys(given, renamed);
  if (entry === null || typeof entry !== "object" || Array.isArray(entry))
    return { messages: [`${where} must be an object of settings.`] };
  // What it says it is: its `type`, or a `command` (stdio) or a `url` (HTTP) without one.
  const type =
    "type" in entry
      ? entry.type
      : "command" in entry
        ? "stdio"
        : "url" in entry
          ? "http"
          : undefined;
  // Unknown keys first: with one, which transport was meant is a guess, and so is the rest.
  const own = transportKeys(type);
  const unknown = Object.keys(entry).filter(
    (key) => !own.includes(camel(key)) && !knownKeys().includes(camel(key)),
  );
  if (unknown.length > 0)
    return {
      messages: unknown.map((key) => {
        const written = renamed.get(key) ?? key;
        return `${where}: unknown key "${written}"${didYouMean(written, knownKeys())}.`;
      }),
    };
  if (type === undefined && !("type" in entry))
    return {
      messages: [`${where}: give it a \`command\` (a stdio server) or a \`url\` (an HTTP server).`],
    };
  const typed = "type" in entry ? entry : { ...entry, type };
  const parsed = entrySchemaFor(type).safeParse(typed, CONFIG_PARSE);
  if (parsed.success) return { entry, messages: [] };
  return {
    messages: parsed.error.issues.flatMap((issue) => {
      const path = issue.path.map((part) => renamed.get(String(part)) ?? camel(String(part)));
      const at = path.length > 0 ? ` ${path.join(".")}` : "";
      return issue.code === "unrecognized_keys"
        ? issue.keys.map((key) => `${where}${at}: unknown key "${renamed.get(key) ?? key}".`)
        : [`${where}${at}: ${issue.message}.`];
    }),
  };
}
