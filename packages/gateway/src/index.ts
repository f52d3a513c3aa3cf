/**
 * The gateway: an agent's tool registry served as one MCP server, over stdio and Streamable
 * HTTP, in both protocol eras, with the agent's policy, approvals asked of the client through
 * elicitation, and an audit log in front. See docs/gateway.md.
 */
export { AuditLog, type AuditRecord } from "./audit-log.js";
export type { GatewayEra } from "./call-context.js";
export { type ClientAnswer, ClientApprovals } from "./client-approvals.js";
export { ExportedNames } from "./exported-names.js";
export { type ExposedToolMatches, ExposedToolSearch } from "./exposed-tool-search.js";
export { type ExposureTest, exposureTest } from "./exposure.js";
export { GATEWAY_SERVER_NAME, Gateway, type GatewayOptionsResolved } from "./gateway.js";
export {
  APPROVAL_INPUT,
  type ApprovalState,
  argumentsHash,
  callToolResult,
} from "./gateway-calls.js";
export { GATEWAY_PLUGIN_NAME, GatewaySettingsToken, gatewayPlugin } from "./gateway-plugin.js";
export {
  defaultAuditFile,
  GATEWAY_SECTION,
  GATEWAY_SECTION_SPEC,
  type GatewayAskMode,
  type GatewayExposeMode,
  type GatewayOptions,
  type GatewaySettings,
  loadGatewaySettings,
} from "./gateway-section.js";
export {
  clientHasTasks,
  type DetailedTask,
  type GatewayTaskStatus,
  GatewayTasks,
  type GatewayTasksOptions,
  TASKS_EXTENSION,
  tasksRequired,
} from "./gateway-tasks.js";
export {
  type ExposedTool,
  GatewayTools,
  type ListedTool,
  listedTool,
  REGISTRY_NAME_META_KEY,
  SOURCE_META_KEY,
  type TaskSupport,
  taskSupportOf,
} from "./gateway-tools.js";
export { type ExportedAnnotations, honestAnnotations } from "./honest-annotations.js";
export { type GatewayAuth, MIN_TOKEN_LENGTH } from "./http-auth.js";
export {
  CALL_TOOL_NAME,
  DEFAULT_SEARCH_LIMIT,
  MAX_SEARCH_LIMIT,
  SEARCH_MODE_TOOLS,
  SEARCH_TOOLS_NAME,
  type SearchToolsOutput,
} from "./search-mode-tools.js";
export {
  type HttpGateway,
  isLoopback,
  MCP_PATH,
  type ServeHttpOptions,
  serveHttp,
} from "./serve-http.js";
export { type StdioGateway, serveGatewayStdio } from "./serve-stdio.js";
export { type RunningGateway, type StartGatewayOptions, startGateway } from "./start-gateway.js";
export { UPSTREAM_URI_SCHEME, UpstreamFeatures, type UpstreamLog } from "./upstream-features.js";
