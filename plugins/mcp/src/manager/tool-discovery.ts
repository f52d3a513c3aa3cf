import type { Diagnostic, Tool } from "@pseudoclaude/core";
import { adaptServerTools, unknownReadOnlyDeclarations } from "../adapt/adapt-server-tools.js";
import type { RemoteCaller } from "../adapt/adapt-tool.js";
import type { McpServerConfig } from "../config/server-config.js";
import type { McpSession } from "../mcp-session.js";
import { listAllTools } from "./list-all-tools.js";

/** What one discovery found: the counters it sets. */
export interface DiscoveryCounts {
  discovered: number;
  adapted: number;
  filtered: number;
}

/** What a ToolDiscovery needs. */
export interface ToolDiscoveryOptions {
  server: McpServerConfig;
  /** What the adapted tools call through. */
  caller: RemoteCaller;
  pageCap: number;
  report: (diagnostic: Diagnostic) => void;
  /** Every discovery that succeeds hands its tools here. */
  onTools: (tools: readonly Tool[]) => void;
}

/**
 * One server's tools: list every page, adapt, count. A failed discovery keeps the previous
 * tools and counters, so a bad re-listing does not take working tools away.
 */
export class ToolDiscovery {
  private current: readonly Tool[] = [];
  private latest: DiscoveryCounts = { discovered: 0, adapted: 0, filtered: 0 };

  constructor(private readonly options: ToolDiscoveryOptions) {}

  get tools(): readonly Tool[] {
    return this.current;
  }

  get counts(): Readonly<DiscoveryCounts> {
    return this.latest;
  }

  /**
   * List and adapt within `signal`. `first`: the start-up listing, the one that also checks
   * `read_only_tools` against what the server offers.
   */
  async discover(session: McpSession, signal: AbortSignal, first: boolean): Promise<void> {
    const { server, report } = this.options;
    // A server without the tools capability offers none (a skills-only or resources-only
    // server): asking would only fetch an error, or make the connection fail.
    if (!session.capabilities.tools) {
      this.latest = { discovered: 0, adapted: 0, filtered: 0 };
      this.current = [];
      this.options.onTools(this.current);
      return;
    }
    const listed = await listAllTools(session, signal, this.options.pageCap);
    for (const diagnostic of listed.diagnostics)
      report({ ...diagnostic, source: `mcp:${server.name}` });
    if (first)
      for (const diagnostic of unknownReadOnlyDeclarations(server, listed.tools))
        report(diagnostic);
    const adapted = adaptServerTools(server, listed.tools, this.options.caller, report);
    for (const diagnostic of adapted.diagnostics) report(diagnostic);
    this.latest = {
      discovered: listed.discovered,
      adapted: adapted.tools.length,
      filtered: adapted.filtered,
    };
    this.current = adapted.tools;
    this.options.onTools(this.current);
  }
}
