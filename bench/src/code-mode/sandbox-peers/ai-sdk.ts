import { importPeer } from "./peer-packages.js";
import type { PeerRunner, SandboxPeer } from "./sandbox-peer.js";

type ToolFn = (spec: Record<string, unknown>) => {
  execute(input: unknown, options: unknown): Promise<unknown>;
};

/**
 * The AI SDK's code mode as its README's "Direct Execution" shows it:
 * `experimental_runCodeMode({ js, tools })` with the tool made by `ai`'s `tool()`; the sandbox
 * is `run` (QuickJS in a worker-thread pool). It declares Node 22.13 or newer, so it runs on the
 * Node 22 binary of the peers' folder.
 */
export const aiSdkCodeMode: SandboxPeer = {
  name: "ai-sdk",
  package: "@ai-sdk/code-mode@1.0.42 (run@2.1.5) + ai@7.0.85, experimental_runCodeMode",
  node: 22,
  async load(): Promise<PeerRunner> {
    const [codeMode, ai, { z }] = await Promise.all([
      importPeer<{ experimental_runCodeMode(input: Record<string, unknown>): Promise<unknown> }>(
        "@ai-sdk/code-mode",
      ),
      importPeer<{ tool: ToolFn }>("ai"),
      importPeer<typeof import("zod")>("zod"),
    ]);
    const echo = ai.tool({
      description: "Answers x.",
      inputSchema: z.object({ x: z.number() }),
      execute: async ({ x }: { x: number }) => x,
    });
    let calls = 0;
    return {
      echo: "tools.echo",
      direct: (x) => echo.execute({ x }, { toolCallId: `direct-${++calls}`, messages: [] }),
      run: (js) => codeMode.experimental_runCodeMode({ js, tools: { echo } }),
    };
  },
};
