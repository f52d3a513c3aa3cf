/** One tool the task needs: which recorded server and tool, the search words, the arguments. */
export interface TaskStep {
  /** The recorded server's key (a tool set's `server`). */
  server: string;
  /** The tool's name as the server lists it; frameworks prefix it, so it is matched as a suffix. */
  tool: string;
  /** What the model searches with when the tool is not offered: the first, then the next. */
  queries: readonly string[];
  arguments: Record<string, unknown>;
}

/**
 * The task every contender runs: three tools from three different servers, each called once
 * with arguments, then a short answer. The same system prompt and user prompt for everyone.
 */
export const TASK = {
  system:
    "You are an assistant that completes tasks with tools. Call the tools the task needs, " +
    "then answer in one sentence.",
  prompt:
    "Checkout on our web shop fails on Safari 18: the Pay button does nothing. File an issue " +
    "in acme/webshop titled 'Checkout fails on Safari 18', find our Notion page 'Checkout " +
    "runbook', and record the bug as an entity in the memory knowledge graph.",
  steps: [
    {
      server: "github",
      tool: "create_issue",
      queries: ["create github issue", "github issue"],
      arguments: {
        owner: "acme",
        repo: "webshop",
        title: "Checkout fails on Safari 18",
        body: "On Safari 18 the Pay button on the checkout page does nothing.",
      },
    },
    {
      server: "notion",
      tool: "API-post-search",
      queries: ["notion search pages", "search notion"],
      arguments: { query: "Checkout runbook" },
    },
    {
      server: "memory",
      tool: "create_entities",
      queries: ["create entities knowledge graph", "memory entities"],
      arguments: {
        entities: [
          {
            name: "Checkout fails on Safari 18",
            entityType: "bug",
            observations: ["The Pay button does nothing on Safari 18."],
          },
        ],
      },
    },
  ] satisfies TaskStep[],
  /** The answer once all three calls came back. */
  answer:
    "Filed the issue in acme/webshop, found the Checkout runbook page, and recorded the bug in memory.",
};
