/** DI token for the agent's own (child) container, so the agent can resolve plugin services. */
export const AgentContainer = Symbol.for("@pseudoclaude/core:AgentContainer");
