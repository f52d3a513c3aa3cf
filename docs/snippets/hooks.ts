// The code of docs/hooks.md: compiled by CI, so the guide cannot go stale.
import { type AgentHooks, createAgent, definePlugin, toolSuccess } from "@pseudoclaude/core";

// #region hooks
const hooks: AgentHooks = {
  // Guard: the model reads the reason of a deny.
  beforeToolCall: function noProdOnFriday({ call }) {
    const env = (call.arguments as { env?: string }).env;
    if (call.name === "deploy" && env === "prod" && new Date().getDay() === 5)
      return { action: "deny", reason: "No deploys to prod on Fridays." };
    return undefined; // no objection: the policy decides
  },
  // Rewrite what the model reads.
  afterToolCall: ({ result }) =>
    result.ok && JSON.stringify(result.content).includes("BEGIN PRIVATE KEY")
      ? { action: "rewrite", result: toolSuccess("[a private key was removed]") }
      : undefined,
  afterRun: (result) => console.log(`run ended: ${result.stopReason}, ${result.turns} turns`),
};
const agent = await createAgent({ hooks });
// #endregion

// #region plugin
// A plugin adds hooks the same way; they run after the code's and end with the agent.
const audit = definePlugin({
  name: "audit",
  register(context) {
    context.addHooks({
      afterToolCall: ({ call, result }) => {
        console.log(`${call.name} ${result.ok ? "ok" : result.error.code}`);
        return undefined;
      },
    });
  },
});
// #endregion
void audit;
await agent.close();
