// `node replay-server.js <tool-set.json>`: an MCP stdio server that lists one recorded server's
// tools exactly as that server listed them (every field, unparsed) and answers any call with a
// short canned text, `ok: <tool> called` (plus a minimal `structuredContent` for a tool that
// declares an output schema). One process per recorded server, as real servers run.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { cannedText } from "./canned-text.js";
import { sampleValue } from "./sample-value.js";
import { readToolSet } from "./tool-set.js";

const file = process.argv[2];
if (!file) {
  process.stderr.write("usage: replay-server.js <tool-set.json>\n");
  process.exit(2);
}
const set = readToolSet(file);
const byName = new Map(set.tools.map((tool) => [tool.name, tool]));

const server = new Server(
  { name: set.package, version: set.version },
  { capabilities: { tools: {} } },
);
// The recorded objects go out as they are: the handler's answer is not parsed on the way out.
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: set.tools }));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const tool = byName.get(request.params.name);
  if (!tool)
    return {
      isError: true,
      content: [{ type: "text", text: `unknown tool ${request.params.name}` }],
    };
  return {
    content: [{ type: "text", text: cannedText(tool.name) }],
    ...(tool.outputSchema ? { structuredContent: sampleValue(tool.outputSchema) } : {}),
  };
});
await server.connect(new StdioServerTransport());
