import { importPeer } from "./peer-packages.js";
import type { PeerRunner, SandboxPeer } from "./sandbox-peer.js";

interface ServerTool {
  execute(input: unknown, context?: unknown): Promise<unknown>;
}

/**
 * TanStack AI's code mode: `createCodeModeTool({ driver: createQuickJSIsolateDriver(), tools })`
 * (the `execute_typescript` tool; the QuickJS driver makes a context per program, on
 * quickjs-emscripten 0.31's asyncify build), the tool a `toolDefinition(...).server(fn)`;
 * the code tool's `execute` is called as its chat loop calls a server tool. Engines: Node 18.
 */
export const tanstackCodeMode: SandboxPeer = {
  name: "tanstack",
  package:
    "@tanstack/ai-code-mode@0.3.4 + @tanstack/ai-isolate-quickjs@0.1.30 (quickjs-emscripten 0.31 asyncify) + @tanstack/ai@0.39.0, createCodeModeTool",
  node: 20,
  // Its trivial program takes 60-200 ms (a context and module per program): 200 calls at once
  // would drown in that.
  calls: 1000,
  async load(): Promise<PeerRunner> {
    const [codeMode, isolate, ai, { z }] = await Promise.all([
      importPeer<{ createCodeModeTool(config: Record<string, unknown>): ServerTool }>(
        "@tanstack/ai-code-mode",
      ),
      importPeer<{ createQuickJSIsolateDriver(): unknown }>("@tanstack/ai-isolate-quickjs"),
      importPeer<{
        toolDefinition(spec: Record<string, unknown>): {
          server(fn: (input: { x: number }) => Promise<number>): ServerTool;
        };
      }>("@tanstack/ai"),
      importPeer<typeof import("zod")>("zod"),
    ]);
    const echo = ai
      .toolDefinition({
        name: "echo",
        description: "Answers x.",
        inputSchema: z.object({ x: z.number() }),
        outputSchema: z.number(),
      })
      .server(async ({ x }) => x);
    const tool = codeMode.createCodeModeTool({
      driver: isolate.createQuickJSIsolateDriver(),
      tools: [echo],
    });
    return {
      echo: "external_echo",
      direct: (x) => echo.execute({ x }),
      run: (typescriptCode) => tool.execute({ typescriptCode }),
    };
  },
};
