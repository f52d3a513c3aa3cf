// `pseudoclaude run` with the real providers: the built CLI as a child process, its keys and
// endpoints in the environment (or the config's `provider` section), talking to local servers
// of ours that speak each API's wire format.
import assert from "node:assert/strict";
import { after, afterEach, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { DEFAULT_ANTHROPIC_MODEL } from "@pseudoclaude/provider-anthropic";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import { anthropicStream } from "./fixtures/providers/anthropic-wire.js";
import { chatStream } from "./fixtures/providers/openai-wire.js";
import { startWireServer, type WireServer } from "./fixtures/providers/wire-server.js";
import { type CliRun, runCli } from "./support/cli.js";

const _ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Variables of this process that would change what the CLI picks; each test sets its own. */
const PROVIDER_VARIABLES = [
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_AUTH_TOKEN",
  "ANTHROPIC_BASE_URL",
  "OPENAI_API_KEY",
  "OPENAI_BASE_URL",
  "OPENAI_ORG_ID",
  "OPENAI_PROJECT_ID",
  "MY_ANTHROPIC_KEY",
];

function cli(
  workspace: TempWorkspace,
  args: readonly string[],
  env: Record<string, string>,
): Promise<CliRun> {
  // The machine's own keys and endpoints must not leak into these runs.
  return runCli(workspace, args, { env, unset: PROVIDER_VARIABLES, timeoutMs: 30_000 });
}

// biome-ignore lint/suspicious/noExplicitAny: the CLI's JSON output, read by path.
function json(run: CliRun): any {
  try {
    return JSON.parse(run.stdout);
  } catch {
    throw new Error(`stdout is not JSON:\n${run.stdout}\nstderr:\n${run.stderr}`);
  }
}

describe("pseudoclaude run with the Anthropic and OpenAI providers", () => {
  let anthropicServer: WireServer;
  let openaiServer: WireServer;
  let workspace: TempWorkspace;
  before(async () => {
    [anthropicServer, openaiServer] = await Promise.all([
      startWireServer(),
      startWireServer("/v1"),
    ]);
  });
  afterEach(async () => {
    anthropicServer.reset();
    openaiServer.reset();
    await workspace?.cleanup();
  });
  after(() => Promise.all([anthropicServer.close(), openaiServer.close()]));

  const fresh = async () => {
    workspace = await createTempWorkspace("pseudoclaude-provider-cli-");
    return workspace;
  };

  it("--provider anthropic alone works with the key and endpoint from the environment", async () => {
    const ws = await fresh();
    anthropicServer.reply(anthropicStream({ text: "Hello from Claude." }));
    const run = await cli(ws, ["run", "Say hello", "--provider", "anthropic", "--json"], {
      ANTHROPIC_API_KEY: "sk-ant-cli-test",
      ANTHROPIC_BASE_URL: anthropicServer.baseURL,
    });
    assert.equal(run.code, 0, run.stderr);
    const output = json(run);
    assert.equal(output.text, "Hello from Claude.");
    assert.equal(output.stop_reason, "end_turn");
    assert.deepEqual(output.diagnostics, []);
    const request = anthropicServer.requests[0];
    assert.equal(request?.body.model, DEFAULT_ANTHROPIC_MODEL);
    assert.equal(request?.headers.authorization, "Bearer sk-ant-cli-test");
  });

  it("without a key, exits 2 and names the variable to set", async () => {
    const ws = await fresh();
    const run = await cli(ws, ["run", "hi", "--provider", "anthropic", "--json"], {
      ANTHROPIC_BASE_URL: anthropicServer.baseURL,
    });
    assert.equal(run.code, 2, run.stderr);
    assert.equal(json(run).error.code, "missing_api_key");
    assert.match(run.stderr, /set the ANTHROPIC_API_KEY environment variable/);
    assert.equal(anthropicServer.requests.length, 0, "nothing was sent");
  });

  it("--provider openai works through OPENAI_BASE_URL, and --model wins over the default", async () => {
    const ws = await fresh();
    openaiServer.reply(chatStream({ text: "Hello from GPT." }));
    const run = await cli(
      ws,
      ["run", "Say hello", "--provider", "openai", "--model", "gpt-test", "--json"],
      {
        OPENAI_API_KEY: "sk-cli-test",
        OPENAI_BASE_URL: openaiServer.baseURL,
      },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.equal(json(run).text, "Hello from GPT.");
    assert.equal(openaiServer.requests[0]?.body.model, "gpt-test");
    assert.equal(openaiServer.requests[0]?.headers.authorization, "Bearer sk-cli-test");
  });

  it("--provider openai without a key exits 2 naming OPENAI_API_KEY", async () => {
    const ws = await fresh();
    const run = await cli(ws, ["run", "hi", "--provider", "openai"], {
      OPENAI_BASE_URL: openaiServer.baseURL,
    });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /set the OPENAI_API_KEY environment variable/);
  });

  it("the config's provider section selects the provider; project beats user, config beats environment", async () => {
    const ws = await fresh();
    await ws.writeConfig(
      "user",
      "provider:\n  name: anthropic\n  model: user-model\n  max_tokens: 100\n",
    );
    await ws.writeConfig(
      "project",
      [
        "provider:",
        "  model: project-model",
        "  api_key_env: MY_ANTHROPIC_KEY",
        `  base_url: ${anthropicServer.baseURL}`,
      ].join("\n"),
    );
    anthropicServer.reply(anthropicStream({ text: "Configured." }));
    // The workspace's endpoint and key variable count once the user approved them.
    assert.equal((await cli(ws, ["trust", "approve", "setting:provider"], {})).code, 0);
    const run = await cli(ws, ["run", "hi", "--json"], {
      MY_ANTHROPIC_KEY: "sk-ant-from-custom-variable",
      // The config's base_url wins over this unreachable endpoint.
      ANTHROPIC_BASE_URL: "http://127.0.0.1:9/unreachable",
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(json(run).text, "Configured.");
    assert.deepEqual(json(run).diagnostics, [], "the section is known, not an unknown one");
    const body = anthropicServer.requests[0]?.body;
    assert.equal(body.model, "project-model");
    assert.equal(body.max_tokens, 100, "user keys the project does not set still apply");
    assert.equal(
      anthropicServer.requests[0]?.headers.authorization,
      "Bearer sk-ant-from-custom-variable",
    );
  });

  it("a missing key named by api_key_env is reported with that variable", async () => {
    const ws = await fresh();
    await ws.writeConfig("project", "provider:\n  name: openai\n  api_key_env: TEAM_OPENAI_KEY\n");
    assert.equal((await cli(ws, ["trust", "approve", "setting:provider"], {})).code, 0);
    const run = await cli(ws, ["run", "hi", "--json"], { OPENAI_API_KEY: "not-this-one" });
    assert.equal(run.code, 2, run.stderr);
    assert.match(json(run).error.message, /set the TEAM_OPENAI_KEY environment variable/);
  });

  it("an invalid provider section is a configuration error with file, line and column", async () => {
    const ws = await fresh();
    const file = await ws.writeConfig(
      "project",
      "provider:\n  name: anthropic\n  max_tokens: lots\n",
    );
    const run = await cli(ws, ["run", "hi", "--json"], { ANTHROPIC_API_KEY: "k" });
    assert.equal(run.code, 2, run.stderr);
    const error = json(run).error;
    assert.equal(error.code, "config_invalid");
    assert.ok(error.message.includes(`${file}:3:15`), error.message);
    assert.match(error.message, /provider\.max_tokens/);
  });

  it("commands without a model still check the section and never call it unknown", async () => {
    const ws = await fresh();
    await ws.writeConfig("project", "provider:\n  name: anthropic\n  base_url: not a url\n");
    const run = await cli(ws, ["tools", "--json"], {});
    assert.equal(run.code, 0, run.stderr);
    const diagnostics = json(run).diagnostics as Array<{
      code: string;
      message: string;
      line?: number;
    }>;
    assert.deepEqual(
      diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.line]),
      [["config_invalid", 3]],
    );
    assert.match(diagnostics[0]?.message ?? "", /provider\.base_url/);
  });

  it("openai-compatible needs no key, only the server's URL and a model", async () => {
    const ws = await fresh();
    await ws.writeConfig(
      "project",
      `provider:\n  name: openai-compatible\n  base_url: ${openaiServer.baseURL}\n  model: llama3.2\n`,
    );
    openaiServer.reply(chatStream({ text: "Hello from a local model." }));
    const run = await cli(ws, ["run", "hi", "--json", "--trust-project"], {});
    assert.equal(run.code, 0, run.stderr);
    assert.equal(json(run).text, "Hello from a local model.");
    assert.equal(openaiServer.requests[0]?.body.model, "llama3.2");

    await ws.writeConfig("project", "");
    const missing = await cli(
      ws,
      ["run", "hi", "--provider", "openai-compatible", "--model", "m", "--json"],
      {},
    );
    assert.equal(missing.code, 2, missing.stderr);
    assert.match(
      json(missing).error.message,
      /provider\.base_url in the config or the OPENAI_BASE_URL environment variable/,
    );
  });

  it("an unknown provider name in config is a configuration error listing the known ones", async () => {
    const ws = await fresh();
    await ws.writeConfig("project", "provider:\n  name: gemini\n");
    const run = await cli(ws, ["run", "hi", "--json"], {});
    assert.equal(run.code, 2, run.stderr);
    assert.match(
      json(run).error.message,
      /Unknown provider "gemini" \(config provider\.name\)\. Available: scripted, anthropic, openai, openai-compatible\./,
    );
  });
});
