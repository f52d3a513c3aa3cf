import type { Diagnostic } from "@pseudoclaude/core";
import {
  type Disposable,
  errorMessage,
  type SkillCatalog,
  type SkillLayerRegistration,
  toDisposable,
} from "@pseudoclaude/core/plugin";
import type { ServerConnection } from "../../manager/server-connection.js";
import { listSkills } from "./list-skills.js";
import { McpSkillLayer } from "./mcp-skill-layer.js";
import { type McpSkillEntry, parseSkillEntry } from "./skill-entry.js";
import { declaresSkills } from "./skills-extension.js";

/** What following one server's skills needs. */
export interface FollowSkillsOptions {
  connection: ServerConnection;
  catalog: SkillCatalog;
  report: (diagnostic: Diagnostic) => void;
  /** Most `skills/list` pages followed. */
  pageCap: number;
}

/**
 * Each time the server is (re)connected and declares the Skills extension, list its skills
 * (the listing only: no file is read) and hold them in its `mcp:<server>` layer of the catalog.
 * The listing is registered as pending work at once, so `catalog.whenSettled()` waits for it.
 * A bad entry is skipped with a diagnostic naming it; one bad entry never hides the others.
 */
export function followServerSkills(options: FollowSkillsOptions): Disposable {
  const { connection, catalog, report } = options;
  const source = `mcp:${connection.name}`;
  const layer = new McpSkillLayer(connection);
  const closed = new AbortController();
  let registration: SkillLayerRegistration | undefined;

  const list = async (): Promise<void> => {
    const session = connection.activeSession;
    if (!session) return;
    const signal = AbortSignal.any([
      closed.signal,
      AbortSignal.timeout(connection.config.connectTimeoutMs),
    ]);
    let entries: McpSkillEntry[] = [];
    try {
      const listing = await listSkills(session, options.pageCap, signal);
      if (listing.stopped)
        report({
          stage: "skills",
          severity: "warning",
          code: "mcp_skills_list_stopped",
          source,
          item: connection.name,
          message: `MCP server "${connection.name}": skills/list stopped early (${listing.stopped}); the skills listed so far are offered.`,
        });
      const keys = new Set<string>();
      for (const raw of listing.entries) {
        const parsed = parseSkillEntry(raw);
        if (parsed.ok && keys.has(parsed.entry.key)) {
          report(skipped(connection.name, `${parsed.entry.uri} is listed twice`));
          continue;
        }
        if (!parsed.ok) {
          report(skipped(connection.name, parsed.problem));
          continue;
        }
        keys.add(parsed.entry.key);
        entries.push(parsed.entry);
      }
    } catch (error) {
      if (closed.signal.aborted) return;
      entries = [];
      report({
        stage: "skills",
        severity: "warning",
        code: "mcp_skills_list_failed",
        source,
        item: connection.name,
        message: `MCP server "${connection.name}" declares skills, but skills/list failed: ${errorMessage(error)}; none of its skills are offered.`,
      });
    }
    if (closed.signal.aborted) return;
    layer.hold(entries);
    registration?.changed();
  };

  const onState = (state: string): void => {
    if (state === "closed") {
      registration?.dispose();
      registration = undefined;
      return;
    }
    if (state !== "ready" || !declaresSkills(connection.activeSession?.capabilities)) return;
    registration ??= catalog.add(layer);
    // Pending from this moment: whoever waits on the catalog waits for this listing.
    registration.pending(list());
  };
  connection.on("state", onState);
  return toDisposable(() => {
    closed.abort();
    connection.off("state", onState);
    registration?.dispose();
  });
}

function skipped(server: string, problem: string): Diagnostic {
  return {
    stage: "skills",
    severity: "warning",
    code: "mcp_skill_entry_invalid",
    source: `mcp:${server}`,
    item: server,
    message: `MCP server "${server}": a skill is not offered: ${problem}.`,
  };
}
