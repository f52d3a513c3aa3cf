/** @pseudoclaude/testing - what plugin authors use in their own tests. */
export { createTempWorkspace, recordEvents, type TempWorkspace } from "./helpers.js";
export { MemoryJournal, WorkerCrash } from "./memory-journal.js";
export {
  type RecordedRequest,
  type ScriptErrorCode,
  type ScriptedExpectation,
  type ScriptedModelErrorCode,
  ScriptedProvider,
  type ScriptedStep,
  type ScriptedTurn,
} from "./scripted-provider.js";
export {
  createTestTool,
  InMemoryToolSource,
  sleep,
  type TestTool,
  type TestToolSpec,
  text,
} from "./test-tools.js";
