import type { SkillLayerEntry, SkillLayerProvider } from "@pseudoclaude/core/plugin";
import type { ServerConnection } from "../../manager/server-connection.js";
import type { McpSkillEntry } from "./skill-entry.js";
import { McpSkillError, verifySkillFile } from "./verify-skill-file.js";

/**
 * One MCP server's skills as a layer of the kernel's skill catalog (`mcp:<server>`). It holds
 * the entries of the last `skills/list` and reads nothing until a file is asked for; then it
 * reads from this server alone (never another: a skill cannot make the agent read elsewhere),
 * only files the held entry lists, and returns them only once their size and digest match it.
 * Never trusted: its skills' `allowed-tools` count only with the user's approval.
 */
export class McpSkillLayer implements SkillLayerProvider {
  readonly id: string;
  readonly origin: string;
  readonly trusted = false;
  private held = new Map<string, McpSkillEntry>();
  private listed: SkillLayerEntry[] = [];

  constructor(private readonly connection: Pick<ServerConnection, "name" | "usableSession">) {
    this.id = `mcp:${connection.name}`;
    this.origin = `MCP server "${connection.name}"`;
  }

  /** Replace the held entries with a new listing's. */
  hold(entries: readonly McpSkillEntry[]): void {
    this.held = new Map(entries.map((entry) => [entry.key, entry]));
    this.listed = entries.map((entry) => ({
      key: entry.key,
      frontmatter: entry.frontmatter,
      location: entry.uri,
      files: entry.resources.map((file) => ({ path: file.path, size: file.size })),
    }));
  }

  entries(): readonly SkillLayerEntry[] {
    return this.listed;
  }

  async readFile(key: string, path: string, signal: AbortSignal): Promise<string> {
    const where = `${this.origin}, skill "${key}"`;
    const entry = this.held.get(key);
    if (!entry)
      throw new McpSkillError(
        "skill_file_unlisted",
        `${where}: the server no longer lists this skill.`,
        { details: { server: this.connection.name, skill: key } },
      );
    const file = entry.resources.find((candidate) => candidate.path === path);
    if (!file)
      throw new McpSkillError(
        "skill_file_unlisted",
        `${where}: "${path}" is not one of the skill's listed files (${entry.resources.map((item) => item.path).join(", ")}); an unlisted file is not read.`,
        { details: { server: this.connection.name, skill: key, path } },
      );
    const session = await this.connection.usableSession(signal);
    const read = await session.readResource(file.uri, signal);
    return verifySkillFile(read.contents ?? [], file, where);
  }
}
