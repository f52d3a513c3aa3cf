// End to end over real stdio: the official server-filesystem serving the agent's workspace as
// its root, with the safety, approval and plan-mode rules applied to its tools.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, it } from "node:test";
import { type Agent, textOf } from "@pseudoclaude/core";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import { eventually } from "./support/mcp-fixtures.js";
import { FILESYSTEM, ROOT, startAgent, TIMEOUT, toolsOf } from "./support/mcp-reference-servers.js";

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
      5_000,
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
