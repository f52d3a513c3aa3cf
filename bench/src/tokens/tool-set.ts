import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** One MCP tool exactly as a server listed it (name, description, schemas, annotations, ...). */
export interface RecordedTool {
  name: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  [field: string]: unknown;
}

/** A public MCP server's recorded `tools/list` answer (bench/fixtures/tool-sets/*.json). */
export interface ToolSet {
  /** The server's key, as a user would name it in a framework's config (`github`). */
  server: string;
  package: string;
  version: string;
  /** The day it was recorded (YYYY-MM-DD). */
  recorded: string;
  command: string;
  tools: RecordedTool[];
}

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * The folder the token row reads its tool sets from: `BENCH_TOOL_SETS` when set (any folder of
 * such files), else the recorded fixtures in the repository.
 */
export function toolSetsDir(): string {
  return process.env.BENCH_TOOL_SETS ?? path.join(here, "..", "..", "fixtures", "tool-sets");
}

/** Every tool set of a folder, with the file it came from, ordered by server name. */
export function loadToolSets(dir = toolSetsDir()): Array<{ file: string; set: ToolSet }> {
  return readdirSync(dir)
    .filter((name) => name.endsWith(".json"))
    .map((name) => path.join(dir, name))
    .map((file) => ({ file, set: readToolSet(file) }))
    .sort((a, b) => a.set.server.localeCompare(b.set.server));
}

/** One fixture file, checked for the fields the replay server and the model rely on. */
export function readToolSet(file: string): ToolSet {
  const set = JSON.parse(readFileSync(file, "utf8")) as ToolSet;
  if (typeof set.server !== "string" || !Array.isArray(set.tools))
    throw new Error(`${file}: not a tool set (needs "server" and "tools")`);
  return set;
}
