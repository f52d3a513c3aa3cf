import path from "node:path";
import type { PeerRunner, SandboxPeer } from "./sandbox-peer.js";

interface MastraTool {
  execute(input: unknown, context?: unknown): Promise<unknown>;
}

/**
 * Mastra's code mode: `createCodeMode({ tools, sandbox: new LocalSandbox(...) })` from
 * `@mastra/core` 1.71.0 (the bench's own copy), the tool made by `createTool`. Each program is a
 * `node --experimental-strip-types` process the sandbox spawns (Node 22.6 or newer; the
 * `node` on its PATH is the peers' Node 22), calling tools back as JSON-RPC over stdio. Its
 * `execute` reads `observe` from the context Mastra's agent passes a tool; the probe passes a
 * no-op one. `@mastra/core` declares Node 22: it runs on it.
 */
export const mastraCodeMode: SandboxPeer = {
  name: "mastra",
  package:
    "@mastra/core@1.71.0 createCodeMode + LocalSandbox (a `node --experimental-strip-types` process per program)",
  node: 22,
  // Its trivial program takes 90-160 ms (a process start): 200 calls would drown in that.
  calls: 1000,
  async load(): Promise<PeerRunner> {
    const [tools, workspace, { z }] = await Promise.all([
      import("@mastra/core/tools"),
      import("@mastra/core/workspace"),
      import("zod"),
    ]);
    const echo = tools.createTool({
      id: "echo",
      description: "Answers x.",
      inputSchema: z.object({ x: z.number() }),
      execute: async ({ x }: { x: number }) => x,
    }) as unknown as MastraTool;
    const sandbox = new workspace.LocalSandbox({
      workingDirectory: path.join(process.env.TMPDIR ?? "/tmp", `pc-bench-mastra-${process.pid}`),
    });
    const { tool } = tools.createCodeMode({ tools: { echo }, sandbox } as never) as unknown as {
      tool: MastraTool;
    };
    const context = { observe: { span: (_name: string, fn: () => unknown) => fn(), log() {} } };
    return {
      echo: "external_echo",
      direct: (x) => echo.execute({ x }, {}),
      run: (code) => tool.execute({ code }, context),
    };
  },
};
