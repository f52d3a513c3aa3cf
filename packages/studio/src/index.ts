/**
 * A local web studio for an agent: its tools (with forms to call them), runs as a live
 * timeline, approvals and questions answered in the page, traces as a waterfall, sessions,
 * MCP servers with their resources and prompts, Skills, and MCP Apps rendered. `pseudoclaude
 * studio` starts one for the CLI's agent; `startStudio` starts one for an agent of your own.
 *
 * @module @pseudoclaude/studio
 */

export { type AppView, MCP_APP_MIME, readAppView } from "./api/app-routes.js";
export type { ViewCsp } from "./api/app-view-csp.js";
export {
  type ApprovalDecision,
  ApprovalDesk,
  type PendingApproval,
  type PendingElicitation,
} from "./approval-desk.js";
export type { StudioEvent } from "./event-hub.js";
export { StudioHttpError } from "./http-json.js";
export type { StudioRun, StudioRunSummary } from "./run-book.js";
export { SpanRecorder, type StudioSpan, TRACE_SDK_PACKAGE } from "./span-recorder.js";
export { type Studio, type StudioOptions, startStudio } from "./studio-server.js";
export type { StudioToolSearch } from "./tool-search-summary.js";
export type { ToolStat } from "./tool-stats.js";
