import type { PeerRunner, SandboxPeer } from "./sandbox-peer.js";

/** Inner calls a measured program may make: the per-call rows make 200, or 1,000 when asked. */
export const MEASURED_MAX_CALLS = 1000;

/**
 * Our sandbox alone: `runProgram` from `@pseudoclaude/plugin-code-mode/sandbox` with a host whose
 * `call` answers at once (no registry, no policy): what the QuickJS bridge costs a call.
 */
export const pseudoclaudeSandbox: SandboxPeer = {
  name: "pseudoclaude",
  package:
    "@pseudoclaude/plugin-code-mode@0.1.0/sandbox (runProgram, QuickJS sync build, a host answering at once)",
  node: 20,
  async load(): Promise<PeerRunner> {
    const { runProgram } = await import("@pseudoclaude/plugin-code-mode/sandbox");
    const echo = async (args: unknown) => (args as { x: number }).x;
    return {
      echo: "tools.echo",
      direct: echo,
      async run(body) {
        const outcome = await runProgram({
          source: body,
          tools: ["echo"],
          namespaces: { echo: "echo" },
          host: {
            call: async (_index, _name, args) => ({
              ok: true,
              value: await echo(args),
              atMs: Date.now(),
            }),
          },
          start: { nowMs: Date.now(), seed: [1, 2, 3, 4] },
          limits: { maxCalls: MEASURED_MAX_CALLS },
        });
        if (!outcome.ok) throw new Error(`${outcome.code}: ${outcome.message}`);
        return outcome.value;
      },
    };
  },
};

/**
 * Ours in an agent: `createAgent({ tools: [echo], plugins: [codeMode()] })` with the default
 * policy (echo is read-only, so allowed), a program sent through `agent.callTool("code_mode")`:
 * each inner call goes through the kernel's whole call pipeline (policy, hooks, registry,
 * argument validation, events, the session's inner-call entry). `direct` is
 * `agent.callTool("echo")` on the same agent.
 */
export const pseudoclaudeAgent: SandboxPeer = {
  name: "pseudoclaude-agent",
  package:
    '@pseudoclaude/core@0.1.0 + @pseudoclaude/plugin-code-mode@0.1.0 (agent.callTool("code_mode"), default policy)',
  node: 20,
  async load(): Promise<PeerRunner> {
    const [{ createAgent, defineTool }, { codeMode }, { z }] = await Promise.all([
      import("@pseudoclaude/core"),
      import("@pseudoclaude/plugin-code-mode"),
      import("zod"),
    ]);
    const echo = defineTool({
      name: "echo",
      description: "Answers x.",
      input: z.object({ x: z.number() }),
      safety: "read_only",
      execute: async ({ x }) => String(x),
    });
    const agent = await createAgent({
      config: false,
      tools: [echo],
      plugins: [codeMode({ limits: { maxCalls: MEASURED_MAX_CALLS } })],
    });
    const call = async (name: string, args: unknown) => {
      const { result } = await agent.callTool(name, args);
      if (!result.ok)
        throw new Error(`${name} failed: ${JSON.stringify(result.content).slice(0, 300)}`);
      return result;
    };
    return {
      echo: "tools.echo",
      direct: (x) => call("echo", { x }),
      async run(body) {
        const result = await call("code_mode", { code: body });
        const text = result.content
          .map((block) => (block.type === "text" ? block.text : ""))
          .join("");
        return JSON.parse(text) as unknown;
      },
      close: () => agent.close(),
    };
  },
};

/** The same two on the peers' Node 22, beside the peers that run there. */
export const pseudoclaudeSandboxNode22: SandboxPeer = {
  ...pseudoclaudeSandbox,
  name: "pseudoclaude-node22",
  node: 22,
};
export const pseudoclaudeAgentNode22: SandboxPeer = {
  ...pseudoclaudeAgent,
  name: "pseudoclaude-agent-node22",
  node: 22,
};
