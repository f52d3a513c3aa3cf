/**
 * @pseudoclaude/cli - the `pseudoclaude` command. `main` runs it in-process; the rest is
 * exported for embedding and for adding providers or default plugins.
 */
export { type CallbackOptions, createApprover, createElicitor } from "./approval.js";
export {
  type CliAgent,
  type CliAgentOptions,
  openCliAgent,
  /** @deprecated Renamed {@link openCliAgent}: "session" means a saved conversation. */
  openCliAgent as openSession,
  withCliAgent,
  /** @deprecated Renamed {@link withCliAgent}: "session" means a saved conversation. */
  withCliAgent as withSession,
} from "./cli-agent.js";
export {
  CliConfigError,
  type CliConfigErrorCode,
  CliUsageError,
  type CliUsageErrorCode,
} from "./cli-errors.js";
export { type CliIo, isInteractive, type TextSink } from "./cli-io.js";
export type { CliFlags } from "./cli-options.js";
export type { CommandContext, CommandSpec } from "./command.js";
export { type DefaultPluginOptions, defaultPlugins } from "./default-plugins.js";
export { EXIT, exitCodeFor } from "./exit-codes.js";
export {
  type InstructionFileEntry,
  type InstructionFilesReport,
  instructionFilesReport,
} from "./instructions/instruction-report.js";
export { type InstructionsOptions, instructions } from "./instructions/instructions-plugin.js";
export {
  callOutcomeToJson,
  sourceToJson,
  type ToolJson,
  type ToolResultJson,
  toolCallToJson,
  toolDefinitionToJson,
  toolResultToJson,
} from "./json-output.js";
export { loadPluginModules } from "./load-plugins.js";
export { COMMANDS, main } from "./main.js";
export { type Prompter, ReadlinePrompter } from "./prompter.js";
export {
  createProvider,
  PROVIDERS,
  type ProviderFactory,
  type ProviderFlags,
} from "./providers.js";
/** @deprecated Renamed {@link CliAgent}: "session" means a saved conversation. */
export type Session = import("./cli-agent.js").CliAgent;
/** @deprecated Renamed {@link CliAgentOptions}. */
export type SessionOptions = import("./cli-agent.js").CliAgentOptions;
export {
  type CliTracing,
  type CliTracingOptions,
  NO_TRACING,
  type NodeSdkModule,
  startCliTracing,
} from "./tracing/cli-tracing.js";
