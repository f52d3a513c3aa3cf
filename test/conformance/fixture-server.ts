// The upstream server behind the gateway when the conformance suite's server scenarios run
// (test/conformance/run-server.sh). It serves, over stdio, the fixtures those scenarios name
// (tools, resources, a template, prompts) with the contents their descriptions give, so every
// failure left is the gateway's, not a missing fixture. The suite talks only to the gateway.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CompleteRequestSchema, SetLevelRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { registerPrompts } from "./fixture-prompts.js";
import { registerResources } from "./fixture-resources.js";
import { registerTools } from "./fixture-tools.js";

const server = new Server(
  { name: "conformance-fixture", version: "1.0.0" },
  {
    capabilities: {
      tools: { listChanged: true },
      resources: { subscribe: true },
      prompts: { listChanged: true },
      logging: {},
      completions: {},
    },
  },
);

registerTools(server);
registerResources(server);
registerPrompts(server);
server.setRequestHandler(SetLevelRequestSchema, async () => ({}));
server.setRequestHandler(CompleteRequestSchema, async () => ({
  completion: { values: [], total: 0, hasMore: false },
}));

await server.connect(new StdioServerTransport());
