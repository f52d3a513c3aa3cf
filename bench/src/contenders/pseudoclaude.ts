import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Agent } from "@pseudoclaude/core";
import type { McpServerOptions } from "@pseudoclaude/plugin-mcp";
import type { Connected, Contender, ServerSpec } from "../contender.js";
import { resultText } from "../contender.js";

export const pseudoclaude: Contender = ours({
  name: "pseudoclaude",
  package: "@pseudoclaude/core@0.1.0 + @pseudoclaude/plugin-mcp@0.1.0",
  core: () => import("@pseudoclaude/core"),
  mcp: () => import("@pseudoclaude/plugin-mcp"),
});

/**
 * Ours with what an instrumented agent has: one no-op hook before and after each call and a
 * recording tracer (OpenTelemetry's SDK, exporting nowhere), so the traced row shows what hooks
 * and tracing cost when used. Unused, they cost nothing: that is the plain rows.
 */
export const pseudoclaudeTraced: Contender = ours({
  name: "pseudoclaude-traced",
  package:
    "@pseudoclaude/core@0.1.0 + @pseudoclaude/plugin-mcp@0.1.0, one no-op hook each side, a recording tracer",
  core: () => import("@pseudoclaude/core"),
  mcp: () => import("@pseudoclaude/plugin-mcp"),
  instrumented: true,
});

/** The environment variable naming another checkout of this repository, built (`npm run build`). */
export const OTHER_CHECKOUT_VARIABLE = "BENCH_OTHER_CHECKOUT";

/**
 * Ours as built in another checkout (`BENCH_OTHER_CHECKOUT=/path/to/checkout`, e.g. a
 * `git worktree` of the commit before a change): the same contender, so a refactor or an
 * optimisation is measured against its parent in one run, interleaved, instead of against a
 * figure from another day. Its modules resolve their dependencies from that checkout's own
 * `node_modules`.
 */
export const pseudoclaudeCheckout: Contender = ours({
  name: "pseudoclaude-checkout",
  package: `@pseudoclaude/core + @pseudoclaude/plugin-mcp built in ${process.env[OTHER_CHECKOUT_VARIABLE] ?? `$${OTHER_CHECKOUT_VARIABLE}`}`,
  core: () => import(otherCheckoutEntry("packages/core")),
  mcp: () => import(otherCheckoutEntry("plugins/mcp")),
});

function otherCheckoutEntry(pkg: string): string {
  const root = process.env[OTHER_CHECKOUT_VARIABLE];
  if (!root)
    throw new Error(
      `pseudoclaude-checkout needs ${OTHER_CHECKOUT_VARIABLE}: the path of another checkout of this repository, built with npm run build`,
    );
  // What a user imports: the bundle (`npm run build`), or one module per source file in a
  // checkout from before the packages were bundled.
  const folder = path.join(path.resolve(root), pkg, "dist");
  const bundle = path.join(folder, "bundle", "index.js");
  return pathToFileURL(existsSync(bundle) ? bundle : path.join(folder, "src", "index.js")).href;
}

type CoreModule = typeof import("@pseudoclaude/core");
type McpModule = typeof import("@pseudoclaude/plugin-mcp");

/**
 * Our framework as a new user composes it: `createAgent({ plugins: [mcp({ servers })] })`,
 * then `agent.callTool` - the whole call path (policy, validation, one timeout, conversion,
 * events). Bypass mode: the benchmark measures the path, not an approval prompt.
 */
function ours(build: {
  name: string;
  package: string;
  core: () => Promise<CoreModule>;
  mcp: () => Promise<McpModule>;
  instrumented?: boolean;
}): Contender {
  return {
    name: build.name,
    package: build.package,
    async load() {
      await Promise.all([build.core(), build.mcp()]);
    },
    async connect(servers) {
      const [{ createAgent }, { mcp }] = await Promise.all([build.core(), build.mcp()]);
      const agent: Agent = await createAgent({
        config: false,
        policy: { mode: "bypass" },
        plugins: [
          mcp({ servers: Object.fromEntries(servers.map((spec) => [spec.name, entry(spec)])) }),
        ],
        ...(build.instrumented ? await instrumentation() : {}),
      });
      const connected: Connected = {
        async call(server, tool, args) {
          const { result } = await agent.callTool(`mcp__${server}__${tool}`, args);
          if (!result.ok) throw new Error(result.error.message);
          return resultText(result.content);
        },
        toolCount: () => agent.registry.list().length,
        close: () => agent.close(),
      };
      return connected;
    },
  };
}

async function instrumentation() {
  const { BasicTracerProvider } = await import("@opentelemetry/sdk-trace-base");
  return {
    hooks: { beforeToolCall: () => undefined, afterToolCall: () => undefined },
    tracing: { tracerProvider: new BasicTracerProvider() },
  };
}

function entry(spec: ServerSpec): McpServerOptions {
  if (spec.transport === "http") {
    if (!spec.url) throw new Error(`Server ${spec.name} is http but has no url.`);
    return { type: "http", url: spec.url };
  }
  if (!spec.command) throw new Error(`Server ${spec.name} is stdio but has no command.`);
  return { type: "stdio", command: spec.command, args: spec.args ?? [], env: spec.env ?? {} };
}
