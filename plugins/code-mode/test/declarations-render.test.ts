// The declaration block of the code tool's description: its exact text for a small set, its
// order, its bounds, and how long it takes for many tools.
import assert from "node:assert/strict";
import { performance } from "node:perf_hooks";
import { describe, it } from "node:test";
import {
  type DeclaredTool,
  renderToolDeclarations,
  toolNamespaces,
} from "../src/declarations/index.js";

const HEADER = [
  "/**",
  " * Tools as async functions. A tool with a declared result type resolves to that object;",
  " * the others resolve to `unknown`: a string when the tool answers with text, an object when",
  " * it answers with structured content.",
  " */",
  "declare const tools: {",
];
const FOOTER = [
  "};",
  "/** Any tool by its full name, those not declared above too. */",
  "declare function callTool(name: string, input: object): Promise<unknown>;",
  "/** What a failed or refused call throws: `code` says why, `tool` is the tool's full name. */",
  "declare class ToolError extends Error { code: string; tool: string }",
];

const SEARCH_ISSUES: DeclaredTool = {
  name: "mcp__github__search_issues",
  description: "Search issues.",
  inputSchema: {
    type: "object",
    properties: { q: { type: "string" }, sort: { enum: ["comments", "created"] } },
    required: ["q"],
  },
  outputSchema: {
    type: "object",
    properties: {
      total_count: { type: "integer" },
      items: {
        type: "array",
        items: {
          type: "object",
          properties: { number: { type: "integer" }, title: { type: "string" } },
          required: ["number", "title"],
        },
      },
    },
  },
};
const READ_FILE: DeclaredTool = {
  name: "read_file",
  description: "Read a file of the workspace.\n\nLines are numbered like cat -n.",
  inputSchema: {
    type: "object",
    properties: { path: { type: "string" }, offset: { type: "integer" } },
    required: ["path"],
  },
};
const GET_ENV: DeclaredTool = {
  name: "mcp__my-server__get-env",
  inputSchema: { type: "object", properties: {} },
};
const NEW: DeclaredTool = {
  name: "mcp__s__new",
  description: "Named new.",
  inputSchema: { type: "object" },
};

/** A tool of a wide SaaS-like server, as the repository's wide fixture lists them. */
function wideTool(index: number): DeclaredTool {
  const noun = `thing${index % 20}`;
  return {
    name: `mcp__service${index % 20}__action_${index}`,
    description: `Works on ${noun}s: one by id or several matching a query; results are paginated.`,
    inputSchema: {
      type: "object",
      properties: {
        id: { type: "string", description: `The ${noun}'s id.` },
        query: { type: "string", description: `Words to match in the ${noun}'s title or body.` },
        limit: { type: "integer", minimum: 1, maximum: 100, description: "At most this many." },
        cursor: { type: "string", description: "Where the previous page ended." },
        fields: { type: "array", items: { type: "string" }, description: "Fields to return." },
      },
    },
    outputSchema: {
      type: "object",
      properties: {
        items: { type: "array", items: { type: "object", properties: { id: { type: "string" } } } },
      },
    },
  };
}

describe("renderToolDeclarations", () => {
  it("declares tools by namespace in path order, with summaries, input and output types", () => {
    const { text, omitted } = renderToolDeclarations([READ_FILE, NEW, GET_ENV, SEARCH_ISSUES]);
    assert.equal(
      text,
      [
        ...HEADER,
        "  github: {",
        "    /** Search issues. */",
        '    search_issues(input: { q: string; sort?: "comments" | "created" }): Promise<{ total_count?: number; items?: Array<{ number: number; title: string }> }>;',
        "  };",
        '  "my-server": {',
        '    "get-env"(input: {}): Promise<unknown>;',
        "  };",
        "  /** Read a file of the workspace. */",
        "  read_file(input: { path: string; offset?: number }): Promise<unknown>;",
        "  s: {",
        "    /** Named new. */",
        '    "new"(input: Record<string, unknown>): Promise<unknown>;',
        "  };",
        ...FOOTER,
      ].join("\n"),
    );
    assert.deepEqual(omitted, []);
  });

  it("reads an MCP tool's output schema from meta.output_schema, as the registry keeps it", () => {
    const { outputSchema, ...definition } = SEARCH_ISSUES;
    const fromMeta = renderToolDeclarations([
      { ...definition, meta: { output_schema: outputSchema } },
    ]);
    assert.equal(fromMeta.text, renderToolDeclarations([SEARCH_ISSUES]).text);
  });

  it("indents multi-line types under their namespace", () => {
    const tool: DeclaredTool = {
      name: "mcp__fs__read",
      inputSchema: {
        type: "object",
        properties: { path: { type: "string", description: "Where." } },
        required: ["path"],
      },
    };
    const { text } = renderToolDeclarations([tool]);
    assert.equal(
      text,
      [
        ...HEADER,
        "  fs: {",
        "    read(input: {",
        "      /** Where. */",
        "      path: string;",
        "    }): Promise<unknown>;",
        "  };",
        ...FOOTER,
      ].join("\n"),
    );
  });

  it("writes the same text whatever order the tools come in, and the first of a name twice", () => {
    const tools = [READ_FILE, NEW, GET_ENV, SEARCH_ISSUES];
    const once = renderToolDeclarations(tools).text;
    assert.equal(renderToolDeclarations([...tools].reverse()).text, once);
    const twice = renderToolDeclarations([...tools, { ...READ_FILE, description: "Other." }]);
    assert.equal(twice.text, once);
  });

  it("declares no tools as an empty namespace", () => {
    assert.equal(renderToolDeclarations([]).text, [...HEADER, ...FOOTER].join("\n"));
  });

  it("summarises a description by its first paragraph on one line, cut at 300 characters", () => {
    const long = `${"Very long sentence. ".repeat(30)}\n\nSecond paragraph.`;
    const { text } = renderToolDeclarations([{ ...READ_FILE, description: long }]);
    const doc = text.split("\n").find((line) => line.startsWith("  /**"))!;
    assert.ok(doc.length <= 2 + 4 + 300 + 3, `${doc.length} characters`);
    assert.ok(doc.endsWith("… */") && !doc.includes("Second"), doc);
  });

  it("leaves whole tools out past maxChars, names them, and keeps within the bound", () => {
    const tools = Array.from({ length: 60 }, (_, index) => wideTool(index));
    const maxChars = 8_000;
    const { text, omitted } = renderToolDeclarations(tools, { maxChars });
    assert.ok(text.length <= maxChars, `${text.length} characters`);
    assert.ok(omitted.length > 0 && omitted.length < tools.length, `${omitted.length} omitted`);
    for (const name of omitted) assert.ok(!text.includes(`${name.split("__")[2]}(`), name);
    const declared = tools.filter((tool) => !omitted.includes(tool.name));
    for (const tool of declared) assert.ok(text.includes(`${tool.name.split("__")[2]}(input`));
    // Every namespace it opened is closed: as many `{` lines as `};` lines.
    const opened = text.split("\n").filter((line) => /^ {2}\w+: \{$/.test(line)).length;
    const closed = text.split("\n").filter((line) => line === "  };").length;
    assert.equal(opened, closed);
  });

  it("names the tools no path can be given to as omitted", () => {
    const { omitted } = renderToolDeclarations([READ_FILE, { name: "a..b" }, { name: "" }]);
    assert.deepEqual(omitted, ["a..b", ""]);
  });

  it("places tools where the sandbox's mapping says, and leaves out entries that clash", () => {
    // `read_file` is callable but not declared: its server namesake still yields to it.
    const namespaces = toolNamespaces(["read_file", "mcp__read_file__list"]);
    const list = { name: "mcp__read_file__list", inputSchema: { type: "object", properties: {} } };
    const placed = renderToolDeclarations([list], { namespaces });
    assert.ok(placed.text.includes("\n  mcp__read_file__list(input: {}): Promise<unknown>;\n"));
    assert.deepEqual(placed.omitted, []);
    const tools = ["x", "y", "z"].map((name) => ({ name, inputSchema: {} }));
    const clashing = renderToolDeclarations(tools, { namespaces: { a: "x", "a.b": "y", "": "z" } });
    assert.ok(clashing.text.includes("\n  a(input: unknown): Promise<unknown>;\n"));
    assert.deepEqual(clashing.omitted, ["y", "z"]);
  });

  it("keeps one tool's types near maxToolChars however wide its schema", () => {
    const properties = Object.fromEntries(
      Array.from({ length: 10_000 }, (_, i) => [
        `p${i}`,
        { type: "string", description: "x".repeat(40) },
      ]),
    );
    const tool = {
      name: "wide",
      inputSchema: { type: "object", properties },
      outputSchema: { type: "object", properties },
    };
    const { text } = renderToolDeclarations([tool], { maxToolChars: 4_000 });
    const body = text.length - [...HEADER, ...FOOTER].join("\n").length;
    assert.ok(body < 4_000 + 1_000, `${body} characters`);
    assert.match(text, /more properties not shown/);
  });

  it("renders 50 and 300 tools in a few milliseconds (measured, not asserted)", (t) => {
    for (const count of [50, 300]) {
      const tools = Array.from({ length: count }, (_, index) => wideTool(index));
      renderToolDeclarations(tools, { maxChars: Number.MAX_SAFE_INTEGER });
      const runs = 20;
      const started = performance.now();
      for (let run = 0; run < runs; run++)
        renderToolDeclarations(tools, { maxChars: Number.MAX_SAFE_INTEGER });
      const ms = (performance.now() - started) / runs;
      t.diagnostic(`${count} tools: ${ms.toFixed(2)} ms a rendering (average of ${runs})`);
    }
  });
});
