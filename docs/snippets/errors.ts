// The code of docs/compose-an-agent.md's section on errors: compiled by CI, so the guide cannot
// go stale.
import { ConfigError, createAgent, ModelError, PseudoClaudeError } from "@pseudoclaude/core";
import { ScriptedProvider } from "@pseudoclaude/testing";

const agent = await createAgent({
  config: false,
  provider: new ScriptedProvider([{ error: "the model is down" }]),
});

// #region guards
try {
  await agent.run("question");
} catch (error) {
  if (ModelError.is(error)) {
    // `error.code` is a ModelErrorCode: a misspelt code is a compile error.
    if (error.code === "rate_limited" || error.code === "overloaded") console.log("retry later");
    else console.error(`model failed (${error.code}): ${error.message}`);
  } else if (ConfigError.is(error)) {
    console.error(`fix the configuration: ${error.code}`, error.details);
  } else if (PseudoClaudeError.is(error)) {
    console.error(`${error.fault} error ${error.code}`);
  } else {
    throw error;
  }
}
// #endregion
await agent.close();

// #region own-codes
declare module "@pseudoclaude/core" {
  interface ConfigErrorCodes extends Record<"my_setting_invalid", true> {}
}
// #endregion

// The augmentation above makes a plugin's code one of ConfigError's.
const mine = new ConfigError("my_setting_invalid", "my_setting must be a number");
if (ConfigError.is(mine)) console.log(mine.code);
