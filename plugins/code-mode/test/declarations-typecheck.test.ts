// Every declaration block the renderer writes is valid TypeScript, checked by the compiler
// itself (a program in memory, strict, no emit, zero diagnostics), and every guest path it
// declares is reachable as guestAccessor writes it. Checked over real tool schemas (the
// recorded tools/list answers of 20 public MCP servers, the built-in tools, the repository's
// fixture servers) and over hostile ones, whose declarations must also stay bounded.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { describe, it } from "node:test";
import ts from "typescript";
import {
  type DeclaredTool,
  guestAccessor,
  renderToolDeclarations,
  toolNamespaces,
} from "../src/declarations/index.js";
import { hostileTools } from "./fixtures/schemas/hostile-schemas.js";

const TOOL_SETS = new URL("../../../../bench/fixtures/tool-sets/", import.meta.url);
const OWN_SCHEMAS = new URL("../../test/fixtures/schemas/", import.meta.url);

interface RecordedSet {
  server: string;
  package: string;
  version: string;
  tools: Array<{
    name: string;
    description?: string;
    inputSchema?: unknown;
    outputSchema?: unknown;
  }>;
}

function recordedSets(folder: URL): RecordedSet[] {
  return readdirSync(folder)
    .filter((file) => file.endsWith(".json"))
    .sort()
    .map((file) => JSON.parse(readFileSync(new URL(file, folder), "utf8")) as RecordedSet);
}

/** A set's tools under the names the registry gives them: MCP servers' under `mcp__<server>__`. */
function registryTools(set: RecordedSet): DeclaredTool[] {
  const prefix = set.server === "builtin-tools" ? "" : `mcp__${set.server}__`;
  return set.tools.map((tool) => ({ ...tool, name: `${prefix}${tool.name}` }));
}

const OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  lib: ["lib.es2022.d.ts"],
  types: [],
  skipLibCheck: true,
};
/** The standard library's files, parsed once for every program of this file. */
const libraries = new Map<string, ts.SourceFile | undefined>();

/** Diagnostics of `files` (name → TypeScript), each a module of its own, as one program. */
function typecheck(files: ReadonlyMap<string, string>): string[] {
  const host = ts.createCompilerHost(OPTIONS, true);
  const fromDisk = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError) => {
    const text = files.get(fileName);
    if (text !== undefined) return ts.createSourceFile(fileName, text, languageVersion, true);
    if (!libraries.has(fileName))
      libraries.set(fileName, fromDisk(fileName, languageVersion, onError));
    return libraries.get(fileName);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (fileName) => files.has(fileName) || fileExists(fileName);
  const program = ts.createProgram([...files.keys()], OPTIONS, host);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const where = diagnostic.file
      ? `${diagnostic.file.fileName}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1}`
      : "(program)";
    return `${where}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`;
  });
}

/**
 * The declarations of `tools`, then a use of every tool they declare by its guest accessor,
 * and of the helpers: what a program written against the description would compile to.
 */
function checkedModule(tools: readonly DeclaredTool[], maxChars = Number.MAX_SAFE_INTEGER) {
  const rendered = renderToolDeclarations(tools, { maxChars });
  const omitted = new Set(rendered.omitted);
  const uses = Object.entries(toolNamespaces(tools.map((tool) => tool.name)))
    .filter(([, name]) => !omitted.has(name))
    .map(([path]) => `void (${guestAccessor(path)} satisfies (input: never) => Promise<unknown>);`);
  const helpers = [
    'void callTool("any_tool", {});',
    "const failure: unknown = null;",
    "if (failure instanceof ToolError) void [failure.code, failure.tool, failure.message];",
  ];
  return { rendered, source: [rendered.text, ...uses, ...helpers, "export {};", ""].join("\n") };
}

describe("declarations the TypeScript compiler accepts", () => {
  const sets = [...recordedSets(TOOL_SETS), ...recordedSets(OWN_SCHEMAS)];

  it("reads the recorded tool sets: 20 public servers, the built-in tools and the fixtures", () => {
    const servers = sets.map((set) => set.server);
    for (const server of ["everything", "filesystem", "memory", "github", "notion"])
      assert.ok(servers.includes(server), server);
    for (const server of ["builtin-tools", "wide", "hostile", "names"])
      assert.ok(servers.includes(server), server);
    assert.ok(sets.reduce((sum, set) => sum + set.tools.length, 0) > 300);
  });

  it("compiles every real server's declarations, each tool declared and reachable", (t) => {
    const files = new Map<string, string>();
    let chars = 0;
    let tools = 0;
    for (const set of sets) {
      const { rendered, source } = checkedModule(registryTools(set));
      // Only a name no path can be given to is left out: the names fixture's dotted one, which
      // the MCP plugin would have renamed (the names here are the servers' own).
      const homeless = set.server === "names" ? ["mcp__names__search.docs"] : [];
      assert.deepEqual(rendered.omitted, homeless, `${set.package}@${set.version}`);
      files.set(`/declarations/${set.server}.ts`, source);
      chars += rendered.text.length;
      tools += set.tools.length;
    }
    const started = performance.now();
    assert.deepEqual(typecheck(files), []);
    t.diagnostic(
      `${tools} tools of ${sets.length} sets, ${chars} characters of declarations, checked in ${Math.round(performance.now() - started)} ms`,
    );
  });

  it("compiles all servers together within the default bound, naming what it left out", () => {
    const everything = sets.flatMap(registryTools);
    const { rendered, source } = checkedModule(everything, 32_000);
    assert.ok(rendered.text.length <= 32_000, `${rendered.text.length} characters`);
    assert.ok(rendered.omitted.length > 0);
    const declared = everything.length - rendered.omitted.length;
    assert.ok(declared >= 20, `${declared} tools declared`);
    assert.deepEqual(typecheck(new Map([["/declarations/all.ts", source]])), []);
  });

  it("keeps hostile schemas bounded and valid, and never throws", (t) => {
    const files = new Map<string, string>();
    const toolChars = 4_000;
    const timings: string[] = [];
    for (const tool of hostileTools()) {
      const started = performance.now();
      const { rendered, source } = checkedModule([tool as DeclaredTool]);
      const ms = performance.now() - started;
      timings.push(`${tool.name.slice(14, 40) || tool.name}: ${ms.toFixed(1)} ms`);
      const body = rendered.text.length - renderToolDeclarations([]).text.length;
      // A tool's input and output types each stay near the tool's bound.
      assert.ok(body <= 2 * toolChars + 1_000, `${JSON.stringify(tool.name)}: ${body} characters`);
      assert.ok(ms < 2_000, `${JSON.stringify(tool.name)}: ${ms} ms`);
      files.set(`/hostile/case-${files.size}.ts`, source);
    }
    assert.deepEqual(typecheck(files), []);
    t.diagnostic(timings.join(", "));
  });

  it("compiles the hostile tools declared together, with collisions between their names", () => {
    const tools = [
      ...(hostileTools() as DeclaredTool[]),
      { name: "hostile", inputSchema: {} },
      { name: "hostile.new", inputSchema: {} },
      { name: "mcp__hostile__new", description: "Twice.", inputSchema: {} },
    ];
    const { rendered, source } = checkedModule(tools, 64_000);
    assert.ok(rendered.text.length <= 64_000);
    assert.deepEqual(typecheck(new Map([["/hostile/all.ts", source]])), []);
  });
});
