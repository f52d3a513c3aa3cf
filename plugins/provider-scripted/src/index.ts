/**
 * @pseudoclaude/provider-scripted - a provider that plays model turns from a script instead of
 * calling a model: offline demos, `pseudoclaude run --script FILE`, and tests that need to
 * know exactly what the model answers. It records every request it was given.
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
} from "./scripted-provider.js";
