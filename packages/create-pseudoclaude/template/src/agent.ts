// The agent this app is about, composed from plugins in one place so that `npm start` and the
// tests run exactly the same agent: a real MCP server over stdio (the official filesystem
// server), a tool written here, and the skills in ./skills. Only the model differs.
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { type Agent, createAgent, defineTool, type Provider } from "@pseudoclaude/core";
import { mcp } from "@pseudoclaude/plugin-mcp";
import { skills } from "@pseudoclaude/plugin-skills";
import { anthropic } from "@pseudoclaude/provider-anthropic";
import { openai } from "@pseudoclaude/provider-openai";
import { z } from "zod";

/** A tool of your own: a zod schema for its input, a function for its work. */
export const wordCount = defineTool({
  name: "word_count",
  description: "Count the words and lines of a text.",
  input: z.object({ text: z.string().describe("The text to count") }),
  // read_only: it changes nothing, so the default policy runs it without asking.
  safety: "read_only",
  execute: ({ text }) => {
    const words = text.split(/\s+/).filter(Boolean).length;
    const lines = text === "" ? 0 : text.split("\n").length;
    return `${words} words, ${lines} lines`;
  },
});

// Resolved from node_modules and started with this Node, so no `npx` download at run time.
const filesystemServer = createRequire(import.meta.url).resolve(
  "@modelcontextprotocol/server-filesystem/dist/index.js",
);
// From dist/src/ back to the app's own skills/ folder.
const skillsFolder = fileURLToPath(new URL("../../skills", import.meta.url));

export interface StarterOptions {
  /** The folder the agent works in (the filesystem server may read only this). */
  workspace: string;
  /**
   * The model: a provider object (tests pass a scripted one), or a name from `providers`
   * with an optional model ("openai:gpt-5.4-mini"). Left out, the config's `provider.name`
   * chooses (.PseudoClaude/config.yaml), and `agent.provider` is undefined if none does.
   */
  provider?: Provider | string | undefined;
}

export function createStarterAgent(options: StarterOptions): Promise<Agent> {
  return createAgent({
    workspace: options.workspace,
    // Providers by name, so config or "name:model" picks one; each reads its own API key.
    providers: { openai, anthropic },
    ...(options.provider === undefined ? {} : { provider: options.provider }),
    tools: [wordCount],
    plugins: [
      mcp({
        servers: {
          filesystem: {
            command: process.execPath,
            args: [filesystemServer, options.workspace],
            // Remote tools ask before they run unless trusted; this official server marks its
            // read-only tools truthfully, so reading runs and writing still asks.
            trustAnnotations: true,
          },
        },
      }),
      skills({ paths: [skillsFolder], watch: false }),
    ],
  });
}
