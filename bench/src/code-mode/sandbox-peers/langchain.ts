import { importPeer } from "./peer-packages.js";
import type { PeerRunner, SandboxPeer } from "./sandbox-peer.js";

interface ReplSession {
  eval(code: string, timeoutMs: number): Promise<{ ok: boolean; value?: unknown; error?: unknown }>;
  dispose(): void;
}

/**
 * LangChain's QuickJS REPL (`@langchain/quickjs`, deepagents' code interpreter): a
 * `ReplSession` given the tool as a LangChain `tool()`; its middleware makes one session per
 * thread, here one per program (a fresh context, as ours), with the PTC call budget lifted
 * (default 256). Its eval returns the last expression, so a program body is wrapped in an async
 * function whose result is that expression. No engines field; it runs on Node 20.
 */
export const langchainQuickjs: SandboxPeer = {
  name: "langchain",
  package:
    "@langchain/quickjs@0.6.4 (quickjs-emscripten 0.32, quickjs-ng asyncify) + @langchain/core@1.4.0, ReplSession",
  node: 20,
  async load(): Promise<PeerRunner> {
    const [quickjs, tools, { z }] = await Promise.all([
      importPeer<{
        ReplSession: new (id: string, options: Record<string, unknown>) => ReplSession;
      }>("@langchain/quickjs"),
      importPeer<{
        tool: (
          fn: (input: { x: number }) => Promise<string>,
          spec: Record<string, unknown>,
        ) => { invoke(input: unknown): Promise<unknown> };
      }>("@langchain/core/tools"),
      importPeer<typeof import("zod")>("zod"),
    ]);
    const echo = tools.tool(async ({ x }) => String(x), {
      name: "echo",
      description: "Answers x.",
      schema: z.object({ x: z.number() }),
    });
    let sessions = 0;
    return {
      echo: "tools.echo",
      direct: (x) => echo.invoke({ x }),
      async run(body) {
        const session = new quickjs.ReplSession(`bench-${++sessions}`, {
          tools: [echo],
          maxPtcCalls: null,
        });
        try {
          const result = await session.eval(`await (async () => {\n${body}\n})()`, 30_000);
          if (!result.ok) throw new Error(`eval failed: ${JSON.stringify(result.error)}`);
          return result.value;
        } finally {
          session.dispose();
        }
      },
    };
  },
};
