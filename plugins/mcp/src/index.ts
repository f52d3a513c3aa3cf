/** @pseudoclaude/plugin-mcp - MCP servers as tool sources. */
export {
  type AdaptedTool,
  adaptTool,
  classifySafety,
  type RemoteCaller,
} from "./adapt/adapt-tool.js";
export { type ConvertOptions, convertCallResult } from "./adapt/convert-result.js";
export { MCP_TOOL_ERROR_CODES, type McpToolErrorCode } from "./adapt/result-codes.js";
export { assignLocalNames, fullToolName, type NamedTool } from "./adapt/tool-name.js";
export type {
  CamelCase,
  CamelKeys,
  CamelValue,
  McpServerEntry,
  McpServerOptions,
  OptionalType,
  OwnKeys,
} from "./config/code-servers.js";
export {
  type LoadedServers,
  loadServers,
  MCP_SECTION,
  MCP_SECTION_SPEC,
} from "./config/load-servers.js";
export { MCP_JSON_FILE, readMcpJson } from "./config/mcp-json.js";
export {
  MCP_WIDENING,
  type ProjectServerApproval,
  projectServerApprovals,
} from "./config/project-approvals.js";
export type {
  HttpServerConfig,
  McpLogLevel,
  McpServerConfig,
  RawServerEntry,
  StdioServerConfig,
} from "./config/server-config.js";
export { MCP_LOG_LEVELS, serverEntrySchema } from "./config/server-config.js";
export { DefaultMcpManager } from "./default-mcp-manager.js";
export { ServerLogs } from "./features/server-logs.js";
export { DEFAULT_PAGE_CAP, type ListedTools, listAllTools } from "./manager/list-all-tools.js";
export { type LoginOptions, loginToServer } from "./manager/login-to-server.js";
export {
  type ConnectionEvents,
  type ConnectionState,
  ServerConnection,
  type ServerConnectionOptions,
  type ServerStats,
} from "./manager/server-connection.js";
export type {
  McpCallErrorCode,
  McpCallReason,
  McpConfigErrorCode,
  McpServerErrorCode,
  McpUsageErrorCode,
} from "./mcp-errors.js";
export {
  type McpLoginOptions,
  McpManager,
  type McpPromptListing,
  type McpResourceListing,
  type McpResourceTemplateListing,
  type McpServerReport,
} from "./mcp-manager.js";
export { MCP_PLUGIN_NAME, type McpPluginOptions, mcp } from "./mcp-plugin.js";
export { McpServerSource } from "./mcp-server-source.js";
export {
  type CallOptions,
  type ClientHandlers,
  type CompletionRequest,
  type CompletionResult,
  type DialOptions,
  McpCallError,
  type McpSession,
  type RemoteCallResult,
  type RemoteContent,
  type RemoteTool,
  type SamplingRequest,
  type SamplingResponse,
  type ServerLogEntry,
  type ServerNotice,
  type SessionDialer,
  type ToolsPage,
} from "./mcp-session.js";
export {
  type CredentialStore,
  defaultCredentialStore,
  defaultCredentialsFile,
  FileCredentialStore,
  MemoryCredentialStore,
  type ServerCredentials,
} from "./oauth/credential-store.js";
export type { Authorizer, OAuthSettings } from "./oauth/oauth-settings.js";
export { SdkDialer } from "./session/dialer.js";
export { StderrTail } from "./wire/stderr-tail.js";
