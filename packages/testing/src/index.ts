/**
 * @pseudoclaude/testing - what plugin authors use in their own tests. `ScriptedProvider` lives in
 * `@pseudoclaude/provider-scripted` (the CLI uses it at run time, without this test kit) and
 * is re-exported here so existing tests keep their import.
 */

export {
  type RecordedRequest,
  type ScriptErrorCode,
  type ScriptedCall,
  type ScriptedExpectation,
  type ScriptedModelErrorCode,
  ScriptedProvider,
  type ScriptedStep,
  type ScriptedTurn,
} from "@pseudoclaude/provider-scripted";
export { createTempWorkspace, recordEvents, type TempWorkspace } from "./helpers.js";
export { MemoryJournal, WorkerCrash } from "./memory-journal.js";
export { describeProviderContract } from "./provider-contract.js";
export type {
  ProviderContractCase,
  ProviderContractHarness,
  ProviderContractMessage,
  ProviderContractObservation,
  ProviderContractReply,
  ProviderContractRequest,
  ProviderContractScript,
  ProviderContractSentCall,
  ProviderContractServer,
  ProviderContractSettings,
  ProviderContractToolCall,
  ProviderContractWireCheck,
} from "./provider-contract-harness.js";
export {
  createTestTool,
  InMemoryToolSource,
  sleep,
  type TestTool,
  type TestToolSpec,
  text,
} from "./test-tools.js";
