// The client under test for the MCP conformance suite (`@modelcontextprotocol/conformance client`).
// It drives our real MCP plugin through a real agent, not the SDK directly, so a pass means the
// plugin's transport, handshake, elicitation and call path conform. The suite runs
// `<command> <serverUrl>` with MCP_CONFORMANCE_SCENARIO set; exit code 0 means every call was ok.
import "reflect-metadata";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type Agent, createAgent, textOf } from "@pseudoclaude/core";
import { MemoryCredentialStore, mcp } from "@pseudoclaude/plugin-mcp";
import { LOAD_SKILL, READ_SKILL_FILE, SkillsManager, skills } from "@pseudoclaude/plugin-skills";

const SERVER = "conformance";
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";
const SOURCE = `mcp:${SERVER}`;

/** One tool call a scenario makes: remote tool name and arguments. */
interface PlannedCall {
  tool: string;
  args: Record<string, unknown>;
}

/** What each known scenario calls; `undefined` means "call every tool with no required args". */
const SCENARIO_CALLS: Record<string, PlannedCall[] | undefined> = {
  // Handshake (initialize + tools/list) only: createAgent already did it.
  initialize: [],
  tools_call: [{ tool: "add_numbers", args: { a: 5, b: 3 } }],
  "elicitation-sep1034-client-defaults": [{ tool: "test_client_elicitation_defaults", args: {} }],
  "sse-retry": [{ tool: "test_reconnection", args: {} }],
};

/** Client identity a scenario hands us in MCP_CONFORMANCE_CONTEXT, as our `oauth` config. */
async function oauthFromContext(workspace: string): Promise<{ oauth?: Record<string, unknown> }> {
  const raw = process.env.MCP_CONFORMANCE_CONTEXT;
  const context = (raw ? JSON.parse(raw) : {}) as Record<string, string | undefined>;
  log(`context keys: ${Object.keys(context).join(", ")}`);
  const oauth: Record<string, unknown> = {};
  if (context.client_id) oauth.client_id = context.client_id;
  if (context.client_secret) oauth.client_secret = context.client_secret;
  if (context.private_key_pem) {
    oauth.private_key_pem = context.private_key_pem;
    oauth.token_endpoint_auth_method = "private_key_jwt";
    if (context.signing_algorithm) oauth.signing_algorithm = context.signing_algorithm;
  }
  if (context.name?.startsWith("auth/client-credentials")) oauth.grant = "client_credentials";
  if (context.idp_token_endpoint && context.idp_client_id && context.idp_id_token) {
    oauth.grant = "cross_app_access";
    oauth.idp = {
      token_endpoint: context.idp_token_endpoint,
      client_id: context.idp_client_id,
      id_token: context.idp_id_token,
    };
  }
  // Workload identity: the workload's JWT in a file, as a platform projects it.
  if (context.valid_jwt) {
    const file = path.join(workspace, "workload.jwt");
    await writeFile(file, `${context.valid_jwt}\n`);
    oauth.grant = "jwt_bearer";
    oauth.assertion_file = file;
  }
  // Our Client ID Metadata Document, as the suite knows it; used only where a server supports it.
  if (!oauth.client_id) oauth.client_metadata_url = CLIENT_METADATA_URL;
  return Object.keys(oauth).length > 0 ? { oauth } : {};
}

/** What a browser does at the suite's authorization server: follow to the redirect, read `code`. */
async function followRedirect({
  url,
  signal,
}: {
  url: URL;
  signal: AbortSignal;
}): Promise<URLSearchParams | undefined> {
  const response = await fetch(url, { redirect: "manual", signal });
  const location = response.headers.get("location");
  if (!location) {
    log(`authorization answered ${response.status} without a redirect`);
    return undefined;
  }
  // The whole query, as a loopback listener hands it on: the plugin checks its `iss`.
  const query = new URL(location, url).searchParams;
  log(`authorization redirected with ${[...query.keys()].join(", ") || "nothing"}`);
  return query;
}

function log(line: string): void {
  process.stderr.write(`[pseudoclaude-conformance-client] ${line}\n`);
}

/** Every tool of the conformance server whose schema requires no argument. */
function callsWithoutArguments(agent: Agent): PlannedCall[] {
  return agent.registry
    .definitions()
    .filter((definition) => definition.source === SOURCE)
    .filter((definition) => {
      const required = definition.inputSchema.required;
      return !Array.isArray(required) || required.length === 0;
    })
    .map((definition) => ({ tool: String(definition.meta?.remote_name ?? ""), args: {} }))
    .filter((call) => call.tool !== "");
}

/** A value of a primitive schema type, for a required argument the scenario does not name. */
function sampleValue(schema: unknown): unknown {
  const type = (schema as { type?: unknown } | null)?.type;
  if (type === "integer" || type === "number") return 1;
  if (type === "boolean") return true;
  return "conformance";
}

/**
 * Every tool the agent holds from the server, required arguments filled with sample values:
 * a tool the plugin excluded (an invalid x-mcp-header) is not there to be called.
 */
function callsWithSampleArguments(agent: Agent): PlannedCall[] {
  return agent.registry
    .definitions()
    .filter((definition) => definition.source === SOURCE)
    .map((definition) => {
      const schema = definition.inputSchema as {
        properties?: Record<string, unknown>;
        required?: string[];
      };
      const args = Object.fromEntries(
        (schema.required ?? []).map((name) => [name, sampleValue(schema.properties?.[name])]),
      );
      return { tool: String(definition.meta?.remote_name ?? ""), args };
    })
    .filter((call) => call.tool !== "");
}

/**
 * Calls that depend on what the server listed or the scenario's context (the 0.2 suite):
 * the 2020-12 schema sent back as the agent holds it, and the header scenario's own calls.
 */
function contextCalls(agent: Agent, scenario: string): PlannedCall[] | undefined {
  if (scenario === "json-schema-2020-12-preservation") {
    const tool = agent.registry.get(`mcp__${SERVER}__json_schema_2020_12_tool`);
    return tool
      ? [{ tool: "json_schema_echo", args: { schema: tool.definition.inputSchema } }]
      : [];
  }
  if (scenario === "http-invalid-tool-headers") return callsWithSampleArguments(agent);
  const raw = process.env.MCP_CONFORMANCE_CONTEXT;
  const toolCalls = (raw ? JSON.parse(raw) : {}).toolCalls as
    | Array<{ name: string; arguments?: Record<string, unknown> }>
    | undefined;
  return toolCalls?.map((call) => ({ tool: call.name, args: call.arguments ?? {} }));
}

/** The one skill the SEP-2640 scenarios serve, as our Skills plugin names it. */
const SERVED_SKILL = `${SOURCE}/pdf-processing`;

/**
 * The SEP-2640 client scenarios, through the real Skills plugin as the model would use it: the
 * served skill must be listed (never read) after start; in the verify scenarios the model loads
 * it, which must be refused (size, digest or front matter differ from the listing). Were it
 * loaded anyway, the model's next step reads the skill's other file, and the suite sees that
 * read as content used without verification.
 */
async function runSkillsScenario(agent: Agent, scenario: string): Promise<number> {
  const manager = agent.resolve<SkillsManager>(SkillsManager);
  await manager.refresh();
  const skill = manager.get(SERVED_SKILL);
  log(
    `skills: ${manager
      .list()
      .map((entry) => `${entry.name} (${entry.state})`)
      .join(", ")}`,
  );
  if (!skill) return 1;
  if (scenario === "sep-2640-client-no-prefetch") return 0;
  const loaded = await agent.callTool(LOAD_SKILL, { name: SERVED_SKILL });
  const detail = loaded.result.ok ? textOf(loaded.result.content) : loaded.result.error?.message;
  log(`${LOAD_SKILL} -> ${loaded.result.ok ? "ok" : "refused"}: ${detail}`);
  if (!loaded.result.ok) return 0;
  await agent.callTool(READ_SKILL_FILE, { skill: SERVED_SKILL, path: "references/FORMS.md" });
  return 1;
}

async function runScenario(agent: Agent, scenario: string): Promise<number> {
  if (scenario.startsWith("sep-2640-client-")) return runSkillsScenario(agent, scenario);
  const calls =
    SCENARIO_CALLS[scenario] ?? contextCalls(agent, scenario) ?? callsWithoutArguments(agent);
  let failures = 0;
  for (const call of calls) {
    const name = `mcp__${SERVER}__${call.tool}`;
    const { result } = await agent.callTool(name, call.args);
    log(`${name} ${JSON.stringify(call.args)} -> ${result.ok ? "ok" : "FAILED"}`);
    const detail = result.ok ? textOf(result.content) : JSON.stringify(result.error);
    log(`  ${detail.length > 500 ? `${detail.slice(0, 500)}...` : detail}`);
    if (!result.ok) failures += 1;
  }
  return failures;
}

async function main(): Promise<number> {
  const url = process.argv.at(-1);
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
  if (!url || !/^https?:\/\//.test(url)) {
    log(`usage: client.js <serverUrl> (got ${JSON.stringify(url)})`);
    return 2;
  }
  log(`scenario ${JSON.stringify(scenario)} against ${url}`);
  const workspace = await mkdtemp(path.join(os.tmpdir(), "pseudoclaude-conformance-"));
  let agent: Agent | undefined;
  try {
    agent = await createAgent({
      workspace,
      config: false,
      plugins: [
        mcp({
          servers: { [SERVER]: { type: "http", url, ...(await oauthFromContext(workspace)) } },
          // The suite's authorization server redirects at once, without a person: follow it
          // ourselves and hand the plugin the code, as a browser and loopback listener would.
          authorize: followRedirect,
          credentials: new MemoryCredentialStore(),
        }),
        // Skills over MCP (SEP-2640) reach the model through the Skills plugin's index.
        skills({ homeDir: workspace, watch: false }),
      ],
      policy: { mode: "bypass" },
      // Accept with nothing filled in: the SDK applies the schema's defaults (applyDefaults).
      elicit: async () => ({ action: "accept", content: {} }),
      strict: true,
    });
    const failures = await runScenario(agent, scenario);
    for (const diagnostic of agent.diagnostics())
      log(`diagnostic ${diagnostic.severity} ${diagnostic.stage}: ${diagnostic.message}`);
    return failures === 0 ? 0 : 1;
  } catch (error) {
    log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return 1;
  } finally {
    await agent?.close();
    await rm(workspace, { recursive: true, force: true });
  }
}

process.exitCode = await main();
