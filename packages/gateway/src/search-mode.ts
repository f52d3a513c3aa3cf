import type {
  CallToolResult,
  InputRequiredResult,
  ServerContext,
  Tool,
} from "@modelcontextprotocol/server";
import type { CallContext } from "./call-context.js";
import type { ExposedToolSearch } from "./exposed-tool-search.js";
import type { GatewayCalls } from "./gateway-calls.js";
import {
  CALL_TOOL_NAME,
  callArguments,
  SEARCH_MODE_TOOLS,
  SEARCH_TOOLS_NAME,
  searchArguments,
  searchToolsResult,
} from "./search-mode-tools.js";

type CallParams = { name: string; arguments?: Record<string, unknown> | undefined };

/**
 * `tools/list` and `tools/call` in `expose_mode: search`. `call_tool` hands the call it names
 * to {@link GatewayCalls} as a direct call of that tool: the policy, the client's approval,
 * the audit, timeouts, tasks and progress are the same, and a tool that is not exposed is
 * refused with the same error. A found tool called by its own name (as some clients do after
 * a search) takes that path too.
 */
export class SearchMode {
  constructor(
    private readonly search: ExposedToolSearch,
    private readonly calls: GatewayCalls,
    /** `gateway.apps`: a found tool carries its MCP App view's meta. */
    private readonly apps = false,
  ) {}

  list(): Tool[] {
    return [...SEARCH_MODE_TOOLS];
  }

  async call(
    params: CallParams,
    ctx: ServerContext,
    where: CallContext,
  ): Promise<CallToolResult | InputRequiredResult> {
    if (params.name === SEARCH_TOOLS_NAME) {
      const search = searchArguments(params.arguments);
      if (search.kind === "invalid") return search.result;
      const matches = await this.search.search(search.query, search.limit);
      return searchToolsResult(search.query, matches, this.apps);
    }
    if (params.name === CALL_TOOL_NAME) {
      const call = callArguments(params.arguments);
      if (call.kind === "invalid") return call.result;
      return this.calls.call({ name: call.name, arguments: call.arguments }, ctx, where, true);
    }
    return this.calls.call(params, ctx, where);
  }
}
