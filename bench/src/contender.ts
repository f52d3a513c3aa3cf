/**
 * What every contender implements, so one runner drives them all alike: the raw MCP SDK, our
 * framework through its public API, and each peer the way its own docs show an agent using
 * it (its tool objects, not a shortcut to the SDK underneath).
 */
export interface ServerSpec {
  /** Server key, as a user would write it in the framework's config. */
  name: string;
  transport: "stdio" | "http";
  /** stdio: the command, its arguments and extra environment. */
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  /** http: the Streamable HTTP endpoint. */
  url?: string;
  /**
   * The protocol revision the server speaks, for a contender that picks its own client by it
   * (the gateway's: the official client of the row's era, as the row's baseline is).
   */
  era?: "2025-11-25" | "2026-07-28";
}

export interface Connected {
  /** Call tool `tool` of server `server` as the framework's agent would; resolves with its text. */
  call(server: string, tool: string, args: Record<string, unknown>): Promise<string>;
  /** How many tools the framework made callable. */
  toolCount(): number;
  close(): Promise<void>;
}

export interface Contender {
  /** `raw-sdk`, `raw-v2`, `pseudoclaude`, `ai-sdk`, `langchain`, `mastra`, `openai-agents`. */
  readonly name: string;
  /** The package that is measured, with its exact version. */
  readonly package: string;
  /** Import what an agent using it imports (the import-time row measures this alone). */
  load(): Promise<void>;
  /** Connect every server and list its tools until they are callable. */
  connect(servers: readonly ServerSpec[]): Promise<Connected>;
}

/** The text of an MCP-shaped tool result, whatever wrapper a framework returns it in. */
export function resultText(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(resultText).join("");
  if (value && typeof value === "object") {
    const record = value as Record<string, unknown>;
    if (typeof record.text === "string") return record.text;
    if (Array.isArray(record.content)) return resultText(record.content);
  }
  return JSON.stringify(value);
}
