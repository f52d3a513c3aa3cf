// Hooks from code, in the kernel, with the scripted provider: a guard that denies (the model
// reads why), rewritten arguments (validated again, decided by the policy), an allow that
// skips the approval but never a deny, a guard that throws failing closed, a rewritten
// result, hooks in order (code, then plugins), and the run and model-request hooks.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  type AgentHooks,
  createAgent,
  definePlugin,
  defineTool,
  type PolicyOptions,
  toolSuccess,
  UsageError,
} from "@pseudoclaude/core";
import {
  createTestTool,
  InMemoryToolSource,
  ScriptedProvider,
  type ScriptedStep,
} from "@pseudoclaude/testing";
import { z } from "zod";

function deployTool() {
  return createTestTool({
    name: "deploy",
    description: "Deploy a service.",
    safety: "side_effect",
    inputSchema: {
      type: "object",
      properties: {
        service: { type: "string" },
        env: { type: "string", enum: ["staging", "prod"] },
      },
      required: ["service", "env"],
      additionalProperties: false,
    },
    run: (args) => `deployed ${String(args.service)} to ${String(args.env)}`,
  });
}

async function hookedAgent(
  steps: ScriptedStep[],
  hooks: AgentHooks,
  options: { policy?: PolicyOptions; pluginHooks?: AgentHooks } = {},
) {
  const provider = new ScriptedProvider(steps);
  const tool = deployTool();
  const agent = await createAgent({
    config: false,
    provider,
    hooks,
    policy: options.policy ?? { mode: "bypass" },
    plugins: [
      definePlugin({
        name: "ops",
        register: (context) => {
          context.addToolSource(new InMemoryToolSource("ops", [tool]));
          if (options.pluginHooks) context.addHooks(options.pluginHooks);
        },
      }),
    ],
  });
  return { agent, provider, tool };
}

const deploy = (env: string) => ({
  tool_calls: [{ id: "d1", name: "deploy", arguments: { service: "api", env } }],
});
const resultText = (provider: ScriptedProvider, request = 1) => {
  const message = provider.requests[request]?.messages.at(-1);
  return message?.role === "tool" ? JSON.stringify(message.result.content) : "";
};

describe("hooks from code", () => {
  it("a beforeToolCall deny stops the call, and the model reads the reason", async () => {
    const { agent, provider, tool } = await hookedAgent([deploy("prod"), { text: "ok" }], {
      beforeToolCall: function noProd({ call }) {
        return (call.arguments as { env?: string }).env === "prod"
          ? { action: "deny", reason: "No deploys to prod on Fridays." }
          : undefined;
      },
    });
    try {
      const result = await agent.run("Deploy api to prod");
      const record = result.toolCalls[0];
      assert.equal(tool.calls.length, 0, "the tool did not run");
      assert.equal(record?.result.error?.code, "denied");
      assert.deepEqual(record?.decision.matched, { kind: "hook", hook: "code:noProd" });
      assert.deepEqual(record?.hooks, [
        {
          hook: "code:noProd",
          stage: "beforeToolCall",
          action: "deny",
          reason: "No deploys to prod on Fridays.",
        },
      ]);
      assert.match(resultText(provider), /No deploys to prod on Fridays\./);
    } finally {
      await agent.close();
    }
  });

  it("rewritten arguments are validated again, and the record keeps what the model sent", async () => {
    const { agent, tool } = await hookedAgent(
      [deploy("prod"), { text: "ok" }, deploy("prod"), { text: "bad" }],
      {
        beforeToolCall: [
          function toStaging({ call }) {
            return {
              action: "rewrite",
              arguments: { ...(call.arguments as object), env: "staging" },
            };
          },
          function log() {
            return { action: "continue" };
          },
        ],
      },
    );
    try {
      const result = await agent.run("Deploy api");
      assert.deepEqual(tool.calls[0]?.args, { service: "api", env: "staging" });
      const record = result.toolCalls[0];
      assert.deepEqual(record?.arguments, { service: "api", env: "staging" });
      assert.deepEqual(record?.hooks?.[0], {
        hook: "code:toStaging",
        stage: "beforeToolCall",
        action: "rewrite",
        originalArguments: { service: "api", env: "prod" },
      });
    } finally {
      await agent.close();
    }
    // A tool with a validator (zod here; MCP tools have Ajv): the rewrite is checked by it.
    let ran = 0;
    const checked = defineTool({
      name: "deploy",
      description: "Deploy a service.",
      input: z.object({ service: z.string(), env: z.enum(["staging", "prod"]) }),
      safety: "side_effect",
      source: "ops",
      execute: () => {
        ran += 1;
        return "deployed";
      },
    });
    const invalid = await createAgent({
      config: false,
      policy: { mode: "bypass" },
      provider: new ScriptedProvider([deploy("prod"), { text: "ok" }]),
      hooks: {
        beforeToolCall: () => ({ action: "rewrite", arguments: { service: "api", env: "moon" } }),
      },
      plugins: [
        definePlugin({
          name: "ops",
          register: (context) =>
            void context.addToolSource(new InMemoryToolSource("ops", [checked])),
        }),
      ],
    });
    try {
      const result = await invalid.run("Deploy api");
      assert.equal(result.toolCalls[0]?.result.error?.code, "invalid_arguments");
      assert.match(result.toolCalls[0]?.result.error?.message ?? "", /env/);
      assert.equal(ran, 0);
    } finally {
      await invalid.close();
    }
  });

  it("an allow skips the approval of an ask, but never turns a policy deny into an allow", async () => {
    const allowAll: AgentHooks = { beforeToolCall: () => ({ action: "allow", reason: "trusted" }) };
    const asked = await hookedAgent([deploy("staging"), { text: "ok" }], allowAll, {
      policy: { mode: "default" },
    });
    try {
      const result = await asked.agent.run("Deploy");
      assert.equal(result.toolCalls[0]?.decision.verdict, "ask");
      assert.equal(result.toolCalls[0]?.approval, "approved");
      assert.equal(asked.tool.calls.length, 1, "ran without anyone to ask");
    } finally {
      await asked.agent.close();
    }
    const denied = await hookedAgent([deploy("staging"), { text: "ok" }], allowAll, {
      policy: { mode: "default", deny: ["deploy"] },
    });
    try {
      const result = await denied.agent.run("Deploy");
      assert.equal(result.toolCalls[0]?.decision.verdict, "deny");
      assert.equal(denied.tool.calls.length, 0);
    } finally {
      await denied.agent.close();
    }
  });

  it("a guard that throws fails closed", async () => {
    const { agent, tool } = await hookedAgent([deploy("staging"), { text: "ok" }], {
      beforeToolCall: function broken() {
        throw new Error("policy service unreachable");
      },
    });
    try {
      const result = await agent.run("Deploy");
      assert.equal(tool.calls.length, 0);
      assert.match(
        result.toolCalls[0]?.result.error?.message ?? "",
        /Hook code:broken failed, so the call was blocked: policy service unreachable/,
      );
      assert.equal(result.toolCalls[0]?.hooks?.[0]?.action, "failed");
    } finally {
      await agent.close();
    }
  });

  it("afterToolCall rewrites the result the model reads; plugin hooks run after the code's", async () => {
    const order: string[] = [];
    const { agent, provider } = await hookedAgent(
      [deploy("staging"), { text: "ok" }],
      {
        afterToolCall: function redact({ result }) {
          order.push("code");
          return result.ok
            ? {
                action: "rewrite",
                result: toolSuccess("deployed [redacted]"),
                reason: "no service names",
              }
            : undefined;
        },
      },
      {
        pluginHooks: {
          afterToolCall: ({ result }) => {
            order.push(`plugin saw ${JSON.stringify(result.content)}`);
            return undefined;
          },
        },
      },
    );
    try {
      const result = await agent.run("Deploy");
      assert.match(resultText(provider), /deployed \[redacted\]/);
      assert.deepEqual(order, [
        "code",
        'plugin saw [{"type":"text","text":"deployed [redacted]"}]',
      ]);
      assert.deepEqual(result.toolCalls[0]?.hooks, [
        {
          hook: "code:redact",
          stage: "afterToolCall",
          action: "rewrite",
          reason: "no service names",
        },
      ]);
    } finally {
      await agent.close();
    }
  });

  it("a call's hook context has its signal as its own property: read, spread, or handed on after a rewrite", async () => {
    const seen: string[] = [];
    const note = (stage: string, context: object & { signal: AbortSignal }): undefined => {
      const copy = { ...context };
      seen.push(
        `${stage}: ${context.signal instanceof AbortSignal} ${Object.keys(context).includes("signal")} ${copy.signal instanceof AbortSignal}`,
      );
      return undefined;
    };
    const { agent } = await hookedAgent(
      [deploy("staging"), { text: "ok" }],
      {
        beforeToolCall: (context) => note("before", context),
        afterToolCall: (context) => {
          note("after", context);
          return { action: "rewrite", result: toolSuccess("deployed") };
        },
      },
      { pluginHooks: { afterToolCall: (context) => note("after a rewrite", context) } },
    );
    try {
      await agent.run("Deploy");
      assert.deepEqual(seen, [
        "before: true true true",
        "after: true true true",
        "after a rewrite: true true true",
      ]);
    } finally {
      await agent.close();
    }
  });

  it("beforeRun blocks or adds context, beforeModelRequest changes the system prompt, afterRun sees the result", async () => {
    const ended: string[] = [];
    const { agent, provider } = await hookedAgent(
      [{ expect: { system_includes: ["Today is Friday."] }, text: "Noted." }],
      {
        beforeRun: ({ prompt }) =>
          prompt.includes("secret")
            ? { action: "deny", reason: "prompts may not contain secrets" }
            : { context: "(sent from the CI)" },
        beforeModelRequest: ({ system }) => ({ system: `${system}\nToday is Friday.` }),
        afterRun: (result) => void ended.push(result.text),
      },
    );
    try {
      await assert.rejects(
        agent.run("my secret is 42"),
        (error: unknown) =>
          error instanceof UsageError &&
          error.code === "run_blocked" &&
          /prompts may not contain secrets/.test(error.message),
      );
      assert.equal(agent.conversation.length, 0, "a blocked prompt is not in the conversation");
      await agent.run("Plan the release");
      assert.deepEqual(provider.requests[0]?.messages[0], {
        role: "user",
        content: "Plan the release\n\n(sent from the CI)",
      });
      assert.deepEqual(ended, ["Noted."]);
    } finally {
      await agent.close();
    }
  });
});
