// The code tool in an agent, with the built-in tools and a real MCP server over stdio (the
// official "everything" server): a program lists a folder, reads each file and counts, and only
// its answer reaches the model; each inner call is decided by the policy (a denied write
// throws a ToolError the program catches; plan mode refuses it inside the program too), is
// announced with the program's call as its parent, and a structured MCP result arrives as an
// object.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { type Agent, createAgent, type ToolResult } from "@pseudoclaude/core";
import { builtinTools } from "@pseudoclaude/plugin-builtin-tools";
import { mcp } from "@pseudoclaude/plugin-mcp";
import { createTempWorkspace, ScriptedProvider, type TempWorkspace } from "@pseudoclaude/testing";
import { CODE_TOOL_NAME, codeMode } from "../src/index.js";

const EVERYTHING = fileURLToPath(
  new URL(
    "../../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    import.meta.url,
  ),
);

const COUNT_TODOS = `
const listing: string = await tools.list_dir({ path: "notes" });
const names = listing.split("\\n").slice(1).map((line) => line.split(/\\s+/)[0]);
let todos = 0;
for (const name of names) {
  const text: string = await tools.read_file({ path: "notes/" + name });
  if (text.includes("TODO")) todos++;
}
return { files: names.length, todos };
`;

function text(result: ToolResult | undefined): string {
  return (result?.content ?? []).map((block) => (block.type === "text" ? block.text : "")).join("");
}

describe("the code tool in an agent", () => {
  let workspace: TempWorkspace;
  let agent: Agent | undefined;
  beforeEach(async () => {
    workspace = await createTempWorkspace("pc-code-mode-");
    for (let i = 0; i < 12; i++)
      await workspace.write(`notes/n${i}.txt`, i % 3 === 0 ? `TODO item ${i}\n` : `done ${i}\n`);
  });
  afterEach(async () => {
    await agent?.close();
    agent = undefined;
    await workspace.cleanup();
  });

  async function start(code: string, mode: "default" | "plan" | "bypass" = "default") {
    agent = await createAgent({
      config: false,
      workspace: workspace.root,
      provider: new ScriptedProvider([
        { tool_calls: [{ id: "p1", name: CODE_TOOL_NAME, arguments: { code } }] },
        { text: "done" },
      ]),
      policy: { mode },
      plugins: [
        builtinTools(),
        mcp({
          servers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } },
        }),
        codeMode(),
      ],
    });
    const started: string[] = [];
    agent.on("tool-call-start", ({ call }) =>
      started.push(call.parentId ? `${call.parentId}>${call.name}` : call.name),
    );
    const result = await agent.run("go");
    return { result, started, program: result.toolCalls.find((c) => c.name === CODE_TOOL_NAME) };
  }

  it("runs a chained task; only the program's answer goes back to the model", async () => {
    const { result, started, program } = await start(COUNT_TODOS);
    assert.equal(program?.result.ok, true, text(program?.result));
    assert.deepEqual(JSON.parse(text(program?.result)), { files: 12, todos: 4 });
    assert.equal(started.length, 14, started.join(", "));
    assert.deepEqual(started.slice(0, 2), [CODE_TOOL_NAME, "p1>list_dir"]);
    assert.ok(started.slice(2).every((name) => name === "p1>read_file"));
    // The model read one result: the program's, not the twelve files.
    assert.equal(result.toolCalls.length, 1);
    const toolMessages = (agent?.conversation.messages ?? []).filter((m) => m.role === "tool");
    assert.equal(toolMessages.length, 1);
  });

  it("declares the loaded tools in its description, an MCP server's under its name", async () => {
    agent = await createAgent({
      config: false,
      workspace: workspace.root,
      plugins: [
        builtinTools(),
        mcp({
          servers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } },
        }),
        codeMode(),
      ],
    });
    const description = agent.registry.get(CODE_TOOL_NAME)?.definition.description ?? "";
    assert.match(description, /declare const tools: \{/);
    assert.match(description, /read_file\(input: \{/);
    assert.match(description, /everything: \{/);
    assert.match(description, /"get-sum"\(input: \{[^}]*a: number;[^}]*b: number;/s);
  });

  it("a structured MCP result arrives as an object, a text one as a string", async () => {
    const { program } = await start(
      `
const structured = await tools.everything["get-structured-content"]({ location: "New York" });
const sum = await tools.everything["get-sum"]({ a: 2, b: 3 });
return { temperature: typeof structured.temperature, sum };`,
      "bypass",
    );
    assert.equal(program?.result.ok, true, text(program?.result));
    const value = JSON.parse(text(program?.result));
    assert.equal(value.temperature, "number");
    assert.match(value.sum, /5/);
  });

  it("a denied call throws a ToolError the program catches; nothing is written", async () => {
    const { program, started } = await start(`
try {
  await tools.write_file({ path: "out.txt", content: "x" });
  return "wrote";
} catch (error) {
  return error instanceof ToolError ? error.code + ": " + error.tool : "other";
}`);
    assert.equal(text(program?.result), "denied: write_file");
    assert.deepEqual(started, [CODE_TOOL_NAME, "p1>write_file"]);
    assert.equal(existsSync(path.join(workspace.root, "out.txt")), false);
  });

  it("plan mode runs the program; a side-effect tool is not there to call", async () => {
    const { program, started } = await start(
      `const listing = await tools.list_dir({ path: "notes" });
       try { await callTool("run_command", { command: "touch x" }); } catch (e) { return [typeof tools.run_command, e.code, e.message]; }`,
      "plan",
    );
    const [kind, code, message] = JSON.parse(text(program?.result));
    assert.equal(
      kind,
      "undefined",
      "plan mode offers no side-effect tool, to the model or a program",
    );
    assert.equal(code, "unknown_tool");
    assert.match(message, /No tool named "run_command" is available to this program/);
    assert.deepEqual(started, [CODE_TOOL_NAME, "p1>list_dir"]);
    assert.equal(existsSync(path.join(workspace.root, "x")), false);
  });

  it("a program that breaks says how and where", async () => {
    const { program } = await start("const x = 1;\nnull.boom;\nreturn x;", "bypass");
    assert.equal(program?.result.ok, false);
    assert.equal(program?.result.ok ? "" : program?.result.error.code, "program_error");
    assert.match(text(program?.result), /^THROWN: .*\(line 2\)/);
  });
});
