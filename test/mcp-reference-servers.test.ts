// End to end over real stdio: the official MCP reference servers (everything, filesystem,
// memory) and two fixture servers, through createAgent + the MCP plugin, as a user composes it.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  type Agent,
  type AgentEvents,
  type CreateAgentOptions,
  createAgent,
  type ElicitationRequest,
  type ToolDefinition,
  textOf,
} from "@pseudoclaude/core";
import { type ToolProgress } from "@pseudoclaude/core/plugin";
import { type McpServerEntry, mcp } from "@pseudoclaude/plugin-mcp";
import { createTempWorkspace, ScriptedProvider, type TempWorkspace } from "@pseudoclaude/testing";
import { FIXTURE_ERAS, type FixtureEra, serverPart } from "./support/mcp-fixtures.js";
import {
  commandLine,
  describePids,
  isRunning,
  markedProcesses,
  markerEnv,
  newMarker,
  parentOf,
  stillRunningAfter,
} from "./support/processes.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const serverPackage = (name: string) =>
  path.join(ROOT, "node_modules", "@modelcontextprotocol", name, "dist", "index.js");
const EVERYTHING = serverPackage("server-everything");
const FILESYSTEM = serverPackage("server-filesystem");
const MEMORY = serverPackage("server-memory");
const fixture = (name: string) =>
  fileURLToPath(new URL(`./fixtures/mcp/${name}.js`, import.meta.url));

const TIMEOUT = { timeout: 30_000 };
/** Close must end everything well within this; it is a hang guard, not a performance bar. */
const CLOSE_BOUND_MS = 10_000;

/** An agent with only the MCP plugin and these servers, in its own temp workspace. */
interface Harness {
  agent: Agent;
  workspace: TempWorkspace;
  /** Marker in every server's env (see support/processes). */
  marker: string;
  dispose(): Promise<void>;
}

async function startAgent(
  servers: Record<string, Record<string, unknown>>,
  options: Partial<CreateAgentOptions> = {},
  workspace?: TempWorkspace,
): Promise<Harness> {
  const ws = workspace ?? (await createTempWorkspace("pc-e2e-mcp-"));
  const marker = newMarker();
  const configured: Record<string, Record<string, unknown>> = {};
  for (const [name, server] of Object.entries(servers)) {
    const env = { ...(server.env as Record<string, string> | undefined), ...markerEnv(marker) };
    configured[name] = { ...server, env };
  }
  let agent: Agent;
  try {
    agent = await createAgent({
      config: false,
      workspace: ws.root,
      plugins: [mcp({ servers: configured as Record<string, McpServerEntry> })],
      ...options,
    });
  } catch (error) {
    await ws.cleanup();
    throw error;
  }
  return {
    agent,
    workspace: ws,
    marker,
    async dispose() {
      try {
        await agent.close();
      } finally {
        await ws.cleanup();
      }
    },
  };
}

const everything = (extra: Record<string, unknown> = {}) => ({
  everything: { type: "stdio", command: process.execPath, args: [EVERYTHING, "stdio"], ...extra },
});

/** Poll until `check` holds; fail with `what` after `ms`. */
async function eventually(
  check: () => boolean | Promise<boolean>,
  what: string,
  ms = 5_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${ms} ms waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function toolsOf(agent: Agent, server: string): ToolDefinition[] {
  return agent.registry
    .definitions()
    .filter((tool) => tool.source === `mcp:${server}`)
    .sort((a, b) => (a.name < b.name ? -1 : 1));
}

function statsOf(agent: Agent, server: string) {
  const report = agent.sources().find((source) => source.id === `mcp:${server}`);
  assert.ok(report, `source mcp:${server} is reported`);
  return report.status;
}

/**
 * server-everything registers its capability-dependent tools (roots, elicitation, sampling)
 * after `initialize` and then sends tools/list_changed: wait until the re-listing landed.
 */
async function untilConditionalToolsListed(agent: Agent): Promise<void> {
  await eventually(
    () =>
      agent.registry.get("mcp__everything__get-roots-list") !== undefined &&
      agent.registry.get("mcp__everything__trigger-elicitation-request") !== undefined,
    "the conditional tools of server-everything",
  );
}

/** Record the progress events of calls to one tool, one list per call, until `stop`. */
function recordProgress(agent: Agent, tool: string) {
  const byCall = new Map<string, ToolProgress[]>();
  const listener = ({ call, progress }: AgentEvents["tool-progress"][0]) => {
    if (call.name !== tool) return;
    const list = byCall.get(call.id) ?? [];
    list.push(progress);
    byCall.set(call.id, list);
  };
  agent.on("tool-progress", listener);
  return {
    /** Progress values per call, in call order. */
    calls: () => [...byCall.values()].map((events) => events.map((event) => event.progress)),
    events: () => [...byCall.values()],
    stop: () => agent.off("tool-progress", listener),
  };
}

describe("server-everything over stdio", () => {
  let harness: Harness;
  let agent: Agent;

  before(async () => {
    // Calls are allowed by a rule so the tests see the server, not the approval path.
    harness = await startAgent(everything(), { policy: { allow: ["mcp__everything__*"] } });
    agent = harness.agent;
    await untilConditionalToolsListed(agent);
  });

  after(async () => {
    await harness?.dispose();
  });

  it(
    "lists every tool as mcp__everything__<name>, keeps both names, and marks all of them side_effect",
    TIMEOUT,
    () => {
      const tools = toolsOf(agent, "everything");
      const names = tools.map((tool) => tool.name);
      for (const expected of [
        "echo",
        "get-tiny-image",
        "get-resource-links",
        "get-resource-reference",
        "get-structured-content",
        "trigger-long-running-operation",
        "get-roots-list",
        "trigger-elicitation-request",
      ]) {
        assert.ok(
          names.includes(`mcp__everything__${expected}`),
          `${expected} is listed: ${names}`,
        );
      }
      for (const tool of tools) {
        assert.match(tool.name, /^mcp__everything__[A-Za-z0-9_-]+$/);
        assert.equal(tool.meta?.remote_name, tool.name.slice("mcp__everything__".length));
        assert.equal(tool.meta?.server, "everything");
        // The server's readOnlyHint is kept as data but not trusted.
        assert.equal(tool.safety, "side_effect", `${tool.name} is side_effect by default`);
      }
      const echo = agent.registry.get("mcp__everything__echo")!.definition;
      assert.equal(echo.annotations?.readOnlyHint, true, "the hint is still visible");
      const structured = agent.registry.get("mcp__everything__get-structured-content")!.definition;
      assert.equal((structured.meta?.output_schema as { type?: string })?.type, "object");
    },
  );

  it("calls echo over stdio and reports the local and remote names", TIMEOUT, async () => {
    const outcome = await agent.callTool("mcp__everything__echo", { message: "hello stdio" });
    assert.equal(outcome.decision.verdict, "allow");
    assert.equal(outcome.result.ok, true, JSON.stringify(outcome.result));
    assert.deepEqual(outcome.result.content, [{ type: "text", text: "Echo: hello stdio" }]);
    assert.equal(outcome.result.metadata.server, "everything");
    assert.equal(outcome.result.metadata.remote_tool, "echo");
    assert.equal(outcome.result.metadata.tool, "mcp__everything__echo");
    assert.equal(typeof outcome.result.metadata.timeout_ms, "number");
  });

  it("carries an image block from get-tiny-image as a base64 PNG", TIMEOUT, async () => {
    const { result } = await agent.callTool("mcp__everything__get-tiny-image", {});
    assert.equal(result.ok, true, JSON.stringify(result));
    const image = result.content.find((block) => block.type === "image");
    assert.ok(image && image.type === "image", "an image block");
    assert.equal(image.mimeType, "image/png");
    assert.equal(
      Buffer.from(image.data, "base64").subarray(1, 4).toString("latin1"),
      "PNG",
      "the data decodes to a PNG",
    );
  });

  it("carries resource_link blocks from get-resource-links", TIMEOUT, async () => {
    const { result } = await agent.callTool("mcp__everything__get-resource-links", { count: 3 });
    assert.equal(result.ok, true, JSON.stringify(result));
    const links = result.content.filter((block) => block.type === "resource_link");
    assert.equal(links.length, 3);
    for (const link of links) {
      assert.ok(link.type === "resource_link");
      assert.match(link.uri, /^demo:\/\/resource\//);
      assert.equal(typeof link.name, "string");
    }
  });

  it("carries embedded text and blob resources from get-resource-reference", TIMEOUT, async () => {
    const text = await agent.callTool("mcp__everything__get-resource-reference", {
      resourceType: "Text",
      resourceId: 1,
    });
    const embeddedText = text.result.content.find((block) => block.type === "resource");
    assert.ok(embeddedText && embeddedText.type === "resource", JSON.stringify(text.result));
    assert.equal(embeddedText.resource.uri, "demo://resource/dynamic/text/1");
    assert.match(embeddedText.resource.text ?? "", /Resource 1/);

    const blob = await agent.callTool("mcp__everything__get-resource-reference", {
      resourceType: "Blob",
      resourceId: 2,
    });
    const embeddedBlob = blob.result.content.find((block) => block.type === "resource");
    assert.ok(embeddedBlob && embeddedBlob.type === "resource", JSON.stringify(blob.result));
    assert.equal(embeddedBlob.resource.uri, "demo://resource/dynamic/blob/2");
    assert.match(Buffer.from(embeddedBlob.resource.blob ?? "", "base64").toString(), /Resource 2/);
  });

  it("keeps structuredContent next to the text mirror", TIMEOUT, async () => {
    const { result } = await agent.callTool("mcp__everything__get-structured-content", {
      location: "Chicago",
    });
    assert.equal(result.ok, true, JSON.stringify(result));
    assert.deepEqual(result.structured, {
      temperature: 36,
      conditions: "Light rain / drizzle",
      humidity: 82,
    });
    assert.deepEqual(JSON.parse(textOf(result.content)), result.structured);
  });

  it("turns notifications/progress into tool-progress events of that call", TIMEOUT, async () => {
    const progress = recordProgress(agent, "mcp__everything__trigger-long-running-operation");
    const { result } = await agent
      .callTool("mcp__everything__trigger-long-running-operation", { duration: 0.4, steps: 4 })
      .finally(progress.stop);
    assert.equal(result.ok, true, JSON.stringify(result));
    assert.match(textOf(result.content), /Steps: 4/);
    assert.equal(progress.events().length, 1, "one call reported progress");
    const events = progress.events()[0]!;
    // Only the tail can be lost (the race the next test covers), so what arrives is a prefix.
    assert.ok(events.length >= 2, `progress events: ${JSON.stringify(events)}`);
    assert.deepEqual(
      events.map((event) => event.progress),
      [1, 2, 3, 4].slice(0, events.length),
    );
    for (const event of events) assert.equal(event.total, 4);
  });

  it(
    "delivers the last progress notification even when it arrives together with the result",
    TIMEOUT,
    async () => {
      // server-everything sends its final progress right before the result; both often reach us
      // in one stdout chunk. The SDK 1.x client defers notification handlers by a microtask but
      // handles responses at once, so the response retires the progress handler first and the
      // last notification is dropped ("unknown token") - unless the transport hands messages
      // over one microtask apart. Eight calls make a lost notification all but certain to show.
      const progress = recordProgress(agent, "mcp__everything__trigger-long-running-operation");
      try {
        for (let call = 0; call < 8; call++) {
          const { result } = await agent.callTool(
            "mcp__everything__trigger-long-running-operation",
            {
              duration: 0.02,
              steps: 2,
            },
          );
          assert.equal(result.ok, true, JSON.stringify(result));
        }
      } finally {
        progress.stop();
      }
      assert.deepEqual(
        progress.calls(),
        Array.from({ length: 8 }, () => [1, 2]),
      );
    },
  );

  it("answers roots/list with the workspace as a file URI", TIMEOUT, async () => {
    const { result } = await agent.callTool("mcp__everything__get-roots-list", {});
    assert.equal(result.ok, true, JSON.stringify(result));
    const text = textOf(result.content);
    assert.match(text, /Current MCP Roots \(1 total\)/);
    assert.ok(
      text.includes(`URI: ${pathToFileURL(harness.workspace.root).href}`),
      `the workspace URI is the root: ${text}`,
    );
  });

  it("declines elicitation at once when no elicit callback is given", TIMEOUT, async () => {
    const started = Date.now();
    const { result } = await agent.callTool("mcp__everything__trigger-elicitation-request", {});
    const elapsed = Date.now() - started;
    assert.equal(result.ok, true, JSON.stringify(result));
    assert.match(textOf(result.content), /declined/);
    assert.ok(elapsed < 5_000, `declined in ${elapsed} ms, not left hanging`);
  });

  it(
    "puts the server's instructions into the system prompt, attributed to the server",
    TIMEOUT,
    () => {
      const instructions = readFileSync(
        path.join(path.dirname(EVERYTHING), "docs", "instructions.md"),
        "utf8",
      ).trim();
      const prompt = agent.systemPrompt();
      assert.ok(prompt.includes('Instructions from MCP server "everything"'), prompt.slice(0, 300));
      assert.ok(prompt.includes("mcp:everything"), "the source is named");
      assert.ok(prompt.includes(instructions), "the whole instructions text is there");
    },
  );

  it(
    "reports the server's counters (configured ... registered) in agent.sources()",
    TIMEOUT,
    () => {
      const status = statsOf(agent, "everything");
      const registered = toolsOf(agent, "everything").length;
      assert.equal(status.state, "ready");
      assert.ok(registered >= 15, `registered ${registered}`);
      assert.deepEqual(status.stats, {
        configured: 1,
        connected: 1,
        discovered: registered,
        adapted: registered,
        filtered: 0,
        registered,
      });
      assert.match(status.parts?.[0]?.message ?? "", /mcp-servers\/everything .*stdio/);
    },
  );
});

describe("server-everything with options", () => {
  it("honours readOnlyHint only when trust_annotations is on", TIMEOUT, async () => {
    const harness = await startAgent(everything({ trust_annotations: true }));
    try {
      await untilConditionalToolsListed(harness.agent);
      const tools = toolsOf(harness.agent, "everything");
      const hinted = tools.filter((tool) => tool.annotations?.readOnlyHint === true);
      const others = tools.filter((tool) => tool.annotations?.readOnlyHint !== true);
      assert.ok(
        hinted.some((tool) => tool.name === "mcp__everything__echo"),
        "echo is hinted read-only",
      );
      assert.ok(others.length > 0, "some tools are not hinted read-only");
      for (const tool of hinted) assert.equal(tool.safety, "read_only", tool.name);
      for (const tool of others) assert.equal(tool.safety, "side_effect", tool.name);
    } finally {
      await harness.dispose();
    }
  });

  it("passes an accepted elicitation's content back to the server", TIMEOUT, async () => {
    const requests: ElicitationRequest[] = [];
    const harness = await startAgent(everything(), {
      policy: { allow: ["mcp__everything__*"] },
      elicit: async (request) => {
        requests.push(request);
        return { action: "accept", content: { name: "Ada Lovelace", check: true } };
      },
    });
    try {
      await untilConditionalToolsListed(harness.agent);
      const { result } = await harness.agent.callTool(
        "mcp__everything__trigger-elicitation-request",
        {},
      );
      assert.equal(result.ok, true, JSON.stringify(result));
      assert.equal(requests.length, 1);
      assert.equal(requests[0]!.source, "mcp:everything");
      assert.ok(
        Object.hasOwn(requests[0]!.requestedSchema.properties as object, "name"),
        "the requested schema reaches the callback",
      );
      const text = textOf(result.content);
      assert.match(text, /User provided the requested information/);
      assert.match(text, /Name: Ada Lovelace/);
      assert.match(text, /Agreed to terms: true/);
    } finally {
      await harness.dispose();
    }
  });

  it("ends the server process when the agent closes", TIMEOUT, async () => {
    const harness = await startAgent(everything());
    try {
      const pids = markedProcesses(harness.marker);
      assert.equal(pids.length, 1, `one server process: ${describePids(pids)}`);
      const [pid] = pids as [number];
      assert.equal(parentOf(pid), process.pid, "spawned by this process");
      assert.match(commandLine(pid), /server-everything.*stdio/);

      const started = Date.now();
      await harness.agent.close();
      const elapsed = Date.now() - started;
      assert.ok(elapsed < CLOSE_BOUND_MS, `close took ${elapsed} ms`);
      assert.equal(isRunning(pid), false, `server ${pid} is gone after close`);
      assert.deepEqual(markedProcesses(harness.marker), []);
    } finally {
      await harness.dispose(); // close is safe to call twice
    }
  });
});

describe("server-filesystem over stdio", () => {
  /** The smallest valid PCM WAV file: a 44-byte RIFF header and two silent samples. */
  function tinyWav(): Buffer {
    const data = Buffer.alloc(4);
    const header = Buffer.alloc(44);
    header.write("RIFF", 0, "latin1");
    header.writeUInt32LE(36 + data.length, 4);
    header.write("WAVE", 8, "latin1");
    header.write("fmt ", 12, "latin1");
    header.writeUInt32LE(16, 16); // fmt chunk size
    header.writeUInt16LE(1, 20); // PCM
    header.writeUInt16LE(1, 22); // mono
    header.writeUInt32LE(8_000, 24); // sample rate
    header.writeUInt32LE(16_000, 28); // byte rate
    header.writeUInt16LE(2, 32); // block align
    header.writeUInt16LE(16, 34); // bits per sample
    header.write("data", 36, "latin1");
    header.writeUInt32LE(data.length, 40);
    return Buffer.concat([header, data]);
  }

  const PNG = Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
    "base64",
  );

  // The command line names another directory on purpose: declaring roots makes the server
  // use the client's roots (our workspace) instead.
  const filesystem = (extra: Record<string, unknown> = {}) =>
    ({
      fs: {
        type: "stdio",
        command: process.execPath,
        args: [FILESYSTEM, path.dirname(ROOT)],
        ...extra,
      },
    }) as Record<string, Record<string, unknown>>;

  async function filesystemWorkspace(): Promise<TempWorkspace> {
    const workspace = await createTempWorkspace("pc-e2e-fs-");
    await workspace.write("notes/hello.txt", "hello from the workspace\n");
    writeFileSync(path.join(workspace.root, "tone.wav"), tinyWav());
    writeFileSync(path.join(workspace.root, "dot.png"), PNG);
    return workspace;
  }

  /**
   * The server swaps its command-line directories for our roots after `initialize`, in the
   * background (roots/list, then realpath): a call racing it would still be refused.
   */
  async function untilWorkspaceServed(agent: Agent, workspace: TempWorkspace): Promise<void> {
    const file = path.join(workspace.root, "notes", "hello.txt");
    await eventually(
      async () => (await agent.callTool("mcp__fs__read_text_file", { path: file })).result.ok,
      "server-filesystem to serve the workspace (roots/list)",
    );
  }

  it(
    "serves the workspace root: lists, reads text, and returns audio and image blocks",
    TIMEOUT,
    async () => {
      const workspace = await filesystemWorkspace();
      const harness = await startAgent(
        filesystem(),
        { policy: { allow: ["mcp__fs__*"] } },
        workspace,
      );
      const call = async (tool: string, args: Record<string, unknown>) => {
        const { result } = await harness.agent.callTool(`mcp__fs__${tool}`, args);
        assert.equal(result.ok, true, `${tool}: ${JSON.stringify(result)}`);
        return result;
      };
      try {
        await untilWorkspaceServed(harness.agent, workspace);
        const allowed = await call("list_allowed_directories", {});
        assert.equal(textOf(allowed.content).trim(), `Allowed directories:\n${workspace.root}`);

        const listing = await call("list_directory", { path: workspace.root });
        assert.match(textOf(listing.content), /\[DIR\] notes/);
        assert.match(textOf(listing.content), /\[FILE\] tone\.wav/);

        const read = await call("read_text_file", {
          path: path.join(workspace.root, "notes", "hello.txt"),
        });
        assert.equal(textOf(read.content), "hello from the workspace\n");
        assert.deepEqual(read.structured, { content: "hello from the workspace\n" });

        const audio = await call("read_media_file", {
          path: path.join(workspace.root, "tone.wav"),
        });
        const sound = audio.content.find((block) => block.type === "audio");
        assert.ok(sound && sound.type === "audio", `an audio block: ${JSON.stringify(audio)}`);
        assert.equal(sound.mimeType, "audio/wav");
        assert.deepEqual(Buffer.from(sound.data, "base64"), tinyWav(), "the bytes survive");

        const image = await call("read_media_file", { path: path.join(workspace.root, "dot.png") });
        const picture = image.content.find((block) => block.type === "image");
        assert.ok(picture && picture.type === "image", `an image block: ${JSON.stringify(image)}`);
        assert.equal(picture.mimeType, "image/png");
        assert.deepEqual(Buffer.from(picture.data, "base64"), PNG);

        const outside = await harness.agent.callTool("mcp__fs__read_text_file", {
          path: path.join(path.dirname(ROOT), "package.json"),
        });
        assert.equal(outside.result.ok, false, "the command-line directory is no longer served");
        assert.equal(outside.result.error?.code, "mcp_tool_error");
      } finally {
        await harness.dispose();
      }
    },
  );

  it(
    "keeps destructive tools side_effect, declares read_only_tools read-only, and asks before writing",
    TIMEOUT,
    async () => {
      const workspace = await filesystemWorkspace();
      const asked: string[] = [];
      const harness = await startAgent(
        filesystem({ read_only_tools: ["read_text_file"] }),
        {
          approve: ({ call }) => {
            asked.push(call.name);
            return "allow";
          },
        },
        workspace,
      );
      try {
        const tools = toolsOf(harness.agent, "fs");
        assert.ok(tools.length > 5, tools.map((tool) => tool.name).join());
        for (const tool of tools) {
          assert.equal(
            tool.safety,
            tool.name === "mcp__fs__read_text_file" ? "read_only" : "side_effect",
            tool.name,
          );
          assert.ok(tool.meta?.output_schema, `${tool.name} keeps its outputSchema`);
        }
        await untilWorkspaceServed(harness.agent, workspace);
        const write = harness.agent.registry.get("mcp__fs__write_file")!.definition;
        assert.equal(write.annotations?.destructiveHint, true);

        const target = path.join(workspace.root, "notes", "written.txt");
        const outcome = await harness.agent.callTool("mcp__fs__write_file", {
          path: target,
          content: "written by the agent",
        });
        assert.equal(outcome.decision.verdict, "ask");
        assert.equal(outcome.approval, "approved");
        assert.equal(outcome.result.ok, true, JSON.stringify(outcome.result));
        assert.equal(await readFile(target, "utf8"), "written by the agent");

        const read = await harness.agent.callTool("mcp__fs__read_text_file", { path: target });
        assert.equal(read.decision.verdict, "allow", "read-only tools need no approval");
        assert.equal(textOf(read.result.content), "written by the agent");
        assert.deepEqual(asked, ["mcp__fs__write_file"]);
      } finally {
        await harness.dispose();
      }
    },
  );

  it(
    "keeps write_file side_effect even when the server's annotations are trusted",
    TIMEOUT,
    async () => {
      const harness = await startAgent(filesystem({ trust_annotations: true }));
      try {
        const safety = (name: string) => harness.agent.registry.get(`mcp__fs__${name}`)?.definition;
        assert.equal(safety("write_file")?.safety, "side_effect");
        assert.equal(safety("move_file")?.safety, "side_effect");
        assert.equal(safety("list_directory")?.safety, "read_only");
        assert.equal(safety("read_text_file")?.safety, "read_only");
      } finally {
        await harness.dispose();
      }
    },
  );

  it("offers only read-only tools in plan mode and refuses the rest", TIMEOUT, async () => {
    const workspace = await filesystemWorkspace();
    const harness = await startAgent(
      filesystem({ read_only_tools: ["read_text_file"] }),
      { policy: { mode: "plan" }, approve: () => "allow" },
      workspace,
    );
    try {
      const offered = harness.agent.offeredTools();
      assert.deepEqual(
        offered.filter((tool) => tool.source === "mcp:fs").map((tool) => tool.name),
        ["mcp__fs__read_text_file"],
      );
      for (const tool of offered) assert.equal(tool.safety, "read_only", tool.name);
      await untilWorkspaceServed(harness.agent, workspace);

      const target = path.join(workspace.root, "plan.txt");
      const write = await harness.agent.callTool("mcp__fs__write_file", {
        path: target,
        content: "x",
      });
      assert.equal(write.decision.verdict, "deny");
      assert.equal(write.result.error?.code, "denied");
      await assert.rejects(readFile(target), { code: "ENOENT" });

      const read = await harness.agent.callTool("mcp__fs__read_text_file", {
        path: path.join(workspace.root, "notes", "hello.txt"),
      });
      assert.equal(read.result.ok, true, JSON.stringify(read.result));
    } finally {
      await harness.dispose();
    }
  });
});

describe("server-memory over stdio", () => {
  it(
    "creates an entity and reads the graph back through a scripted agent run",
    TIMEOUT,
    async () => {
      const workspace = await createTempWorkspace("pc-e2e-memory-");
      const memoryFile = path.join(workspace.root, "memory.jsonl");
      const entity = {
        name: "Ada",
        entityType: "person",
        observations: ["wrote the first program"],
      };
      const provider = new ScriptedProvider([
        {
          tool_calls: [{ name: "mcp__memory__create_entities", arguments: { entities: [entity] } }],
        },
        { tool_calls: [{ name: "mcp__memory__read_graph", arguments: {} }] },
        { text: "done" },
      ]);
      const harness = await startAgent(
        {
          memory: {
            type: "stdio",
            command: process.execPath,
            args: [MEMORY],
            // Always: without it the server writes next to its own package.
            env: { MEMORY_FILE_PATH: memoryFile },
          },
        },
        { provider, approve: () => "allow" },
        workspace,
      );
      try {
        const result = await harness.agent.run("Remember Ada, then show the graph.");
        assert.equal(result.stopReason, "end_turn");
        assert.equal(result.text, "done");
        assert.deepEqual(
          result.toolCalls.map((call) => [
            call.name,
            call.decision.verdict,
            call.approval,
            call.result.ok,
          ]),
          [
            ["mcp__memory__create_entities", "ask", "approved", true],
            ["mcp__memory__read_graph", "ask", "approved", true],
          ],
        );
        const [created, graph] = result.toolCalls;
        assert.deepEqual(created!.result.structured, { entities: [entity] });
        assert.deepEqual(graph!.result.structured, { entities: [entity], relations: [] });
        assert.deepEqual(JSON.parse(textOf(graph!.result.content)), graph!.result.structured);
        assert.equal(graph!.result.metadata.remote_tool, "read_graph");

        // The model saw the graph, and the server wrote where MEMORY_FILE_PATH told it to.
        const lastRequest = provider.requests[2]!;
        const toolMessage = lastRequest.messages.at(-1);
        assert.ok(
          toolMessage?.role === "tool" && toolMessage.toolName === "mcp__memory__read_graph",
        );
        assert.ok(provider.requests[0]!.toolNames.includes("mcp__memory__read_graph"));
        assert.match(await readFile(memoryFile, "utf8"), /"name":"Ada"/);
      } finally {
        await harness.dispose();
      }
    },
  );
});

describe("process hygiene of stdio servers", () => {
  async function wrappedGrandchild(ignoreTerm: boolean, era: FixtureEra) {
    const workspace = await createTempWorkspace("pc-e2e-procs-");
    const log = path.join(workspace.root, "fixture.log");
    const harness = await startAgent(
      {
        wrapped: {
          type: "stdio",
          command: "sh",
          // `; true` keeps sh alive as the server's parent, like npx and other wrappers.
          args: ["-c", `"${process.execPath}" "${fixture("with-grandchild")}" ; true`],
          env: {
            FIXTURE_LOG: log,
            ...era.env,
            ...(ignoreTerm ? { FIXTURE_IGNORE_TERM: "1" } : {}),
          },
        },
      },
      {},
      workspace,
    );
    try {
      assert.ok(harness.agent.registry.get("mcp__wrapped__noop"), "the wrapped server connected");
      assert.equal(serverPart(harness.agent, "wrapped")?.protocolVersion, era.version);
      const lines = (await readFile(log, "utf8")).split("\n");
      const pidOf = (role: string) =>
        Number(lines.find((line) => line.startsWith(`${role} `))?.split(" ")[1]);
      const server = pidOf("server");
      const grandchild = pidOf("grandchild");
      const all = markedProcesses(harness.marker);
      const wrapper = all.find((pid) => pid !== server && pid !== grandchild);
      assert.ok(all.includes(server) && all.includes(grandchild), describePids(all));
      assert.equal(all.length, 3, `sh, server, grandchild: ${describePids(all)}`);
      assert.ok(wrapper !== undefined && /^sh -c/.test(commandLine(wrapper)), describePids(all));
      assert.equal(parentOf(server), wrapper);
      assert.equal(parentOf(grandchild), server);

      const started = Date.now();
      await harness.agent.close();
      const elapsed = Date.now() - started;
      assert.ok(elapsed < CLOSE_BOUND_MS, `close took ${elapsed} ms`);
      const left = await stillRunningAfter([wrapper, server, grandchild]);
      assert.deepEqual(left, [], `still running after close: ${describePids(left)}`);
      assert.deepEqual(markedProcesses(harness.marker), []);
      return await readFile(log, "utf8");
    } finally {
      await harness.dispose(); // close is safe to call twice
    }
  }

  for (const era of FIXTURE_ERAS) {
    it(
      `ends a sh -c wrapper, the server under it and the server's grandchild on close (${era.version})`,
      TIMEOUT,
      async () => {
        await wrappedGrandchild(false, era);
      },
    );

    it(
      `kills a server that ignores SIGTERM, with its wrapper and grandchild, within the bound (${era.version})`,
      TIMEOUT,
      async () => {
        const log = await wrappedGrandchild(true, era);
        assert.match(log, /ignored SIGTERM/, "SIGTERM came first, then SIGKILL ended it");
      },
    );
  }
});

describe("the connect budget does not bound the server's life", () => {
  it(
    "still calls the same server process after its connect_timeout_ms has passed",
    TIMEOUT,
    async () => {
      const harness = await startAgent(
        {
          beh: {
            type: "stdio",
            command: process.execPath,
            args: [fixture("behaviours")],
            connect_timeout_ms: 1_500,
          },
        },
        { policy: { allow: ["mcp__beh__*"] } },
      );
      try {
        assert.equal(
          statsOf(harness.agent, "beh").state,
          "ready",
          `connected within the 1.5 s budget: ${JSON.stringify(harness.agent.diagnostics())}`,
        );
        const [pid, ...others] = markedProcesses(harness.marker);
        assert.ok(pid !== undefined && others.length === 0, "one server process");
        await new Promise((resolve) => setTimeout(resolve, 2_500));
        assert.equal(isRunning(pid), true, "the server outlived the connect budget");

        const echo = await harness.agent.callTool("mcp__beh__echo", { text: "late" });
        assert.equal(echo.decision.verdict, "allow");
        assert.equal(echo.result.ok, true, JSON.stringify(echo.result));
        assert.deepEqual(echo.result.content, [{ type: "text", text: "late" }]);
        // A reconnect would hide the defect: the call must have reached the first process.
        const served = await harness.agent.callTool("mcp__beh__pid", {});
        assert.equal(textOf(served.result.content), String(pid));
        const codes = harness.agent.diagnostics().map((diagnostic) => diagnostic.code);
        assert.ok(!codes.includes("server_disconnected"), codes.join());
        assert.ok(!codes.includes("reconnected"), codes.join());
      } finally {
        await harness.dispose();
      }
    },
  );
});
