// What a program can do and how its outcome reads: values, TypeScript, tools, console, errors.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { UsageError } from "@pseudoclaude/core";
import { runProgram } from "../src/sandbox/index.js";
import {
  expectValue,
  FakeHost,
  failureOf,
  NAMESPACES,
  run,
  START,
  TOOLS,
} from "./support/fake-host.js";

describe("a program's value", () => {
  it("is what it returns, through JSON, with top-level await", async () => {
    assert.equal(await expectValue("return 1 + 1"), 2);
    assert.deepEqual(
      await expectValue("const x = await Promise.resolve({ a: [1, 'b'] }); return x"),
      {
        a: [1, "b"],
      },
    );
    assert.equal(await expectValue("const noop = 1;"), null, "no return: null");
    assert.equal(await expectValue("return undefined"), null);
    assert.deepEqual(await expectValue("return { f() {}, d: new Date(0) }"), {
      d: "1970-01-01T00:00:00.000Z",
    });
  });

  it("accepts TypeScript (types stripped, enums kept) and a fenced block", async () => {
    const source = [
      "interface Item { n: number }",
      "enum Color { Red, Green }",
      "const items: Item[] = [{ n: 1 }, { n: 2 }] satisfies Item[];",
      "const total = items.reduce((sum: number, item) => sum + item.n, 0) as number;",
      "return [total, Color.Green];",
    ].join("\n");
    assert.deepEqual(await expectValue(source), [3, 1]);
    assert.equal(await expectValue("```ts\nconst x: number = 5;\nreturn x\n```"), 5);
    assert.equal(await expectValue("```\nreturn 6\n```"), 6);
  });

  it("reports console output with levels, and counts its calls", async () => {
    const outcome = await run(
      "console.log('a', 1, { b: 2 }, [3]); console.info('i'); console.warn('w'); console.error(new TypeError('e')); return 'done'",
    );
    assert.ok(outcome.ok);
    assert.equal(outcome.logs, 'a 1 {"b":2} [3]\n[info] i\n[warn] w\n[error] TypeError: e');
    assert.deepEqual(outcome.warnings, []);
    assert.equal(outcome.calls, 0);
    assert.ok(outcome.durationMs >= 0);
  });
});

describe("calling tools", () => {
  it("reaches each tool through its namespace or its full name, with indexes in call order", async () => {
    const host = new FakeHost();
    const value = await expectValue(
      [
        "const a = await tools.echo({ n: 1 });",
        "const [b, c] = await Promise.all([",
        "  tools.github.search_issues({ q: 'is:open' }),",
        "  callTool('mcp__github__search_issues', { q: 'is:pr' }),",
        "]);",
        "return [a.n, b.items[0].query.q, c.items[0].query.q];",
      ].join("\n"),
      { host },
    );
    assert.deepEqual(value, [1, "is:open", "is:pr"]);
    assert.deepEqual(
      host.seen.map(({ index, name, args }) => [index, name, args]),
      [
        [0, "echo", { n: 1 }],
        [1, "mcp__github__search_issues", { q: "is:open" }],
        [2, "mcp__github__search_issues", { q: "is:pr" }],
      ],
    );
  });

  it("gives each tool function one object argument; none means {}", async () => {
    const host = new FakeHost();
    assert.deepEqual(await expectValue("return await tools.echo()", { host }), {});
    const refused = await expectValue(
      "const out = []; for (const a of [[1], 'x', 5, null, new Map()]) { try { await tools.echo(a) } catch (e) { out.push(e.code) } } return out",
      { host },
    );
    assert.deepEqual(refused, Array(5).fill("invalid_arguments"));
    assert.equal(host.seen.length, 1, "refused calls never reach the host");
  });

  it("throws a failed call's answer as a ToolError the program may catch", async () => {
    const value = await expectValue(
      "try { await tools.fail({}) } catch (e) { return [e instanceof ToolError, e instanceof Error, e.name, e.code, e.message, e.tool] }",
    );
    assert.deepEqual(value, [true, true, "ToolError", "denied", "Denied by a rule.", "fail"]);
    const outcome = await run("await tools.fail({})");
    assert.match(failureOf(outcome, "THROWN"), /^ToolError \(denied\): Denied by a rule\.$/);
  });

  it("refuses a name outside the program's tools without listing any", async () => {
    const value = await expectValue(
      "try { await callTool('mcp__secret__drop_tables', {}) } catch (e) { return [e.code, e.message, e.tool] }",
    );
    assert.deepEqual(value, [
      "unknown_tool",
      'No tool named "mcp__secret__drop_tables" is available to this program; the tools object lists those that are.',
      "mcp__secret__drop_tables",
    ]);
    assert.deepEqual(await expectValue("return Object.keys(tools).sort()"), [
      "echo",
      "fail",
      "github",
      "slow",
    ]);
  });

  it("offers a frozen tools object and fixed globals", async () => {
    const value = await expectValue(
      [
        "'use strict';",
        "const tries = [() => { tools.echo = 1 }, () => { tools.github.x = 1 }, () => { tools = null }, () => { callTool = null }];",
        "const failed = tries.map((t) => { try { t(); return false } catch { return true } });",
        "return [failed, Object.isFrozen(tools), Object.isFrozen(tools.github), typeof tools.echo];",
      ].join("\n"),
    );
    assert.deepEqual(value, [[true, true, true, true], true, true, "function"]);
  });

  it("exposes no timers, network, modules, process or garbage-collector hooks", async () => {
    const names = ["setTimeout", "setInterval", "queueMicrotask", "fetch", "require", "process"];
    const value = await expectValue(
      `return ${JSON.stringify([...names, "WeakRef", "FinalizationRegistry", "module", "Buffer"])}.map((n) => typeof globalThis[n])`,
    );
    assert.deepEqual(value, Array(10).fill("undefined"));
  });
});

describe("a program that fails", () => {
  it("reports a syntax error with its line, for JavaScript and TypeScript", async () => {
    const js = await run("const a = 1;\n\nconst b = (;\nreturn b");
    assert.match(failureOf(js, "SYNTAX"), /^SyntaxError: .+ \(line 3\)$/);
    assert.ok(!js.ok && js.line === 3);
    const ts = await run("const a: number = 1;\nconst b: string = ;");
    assert.match(failureOf(ts, "SYNTAX"), /^SyntaxError: Unexpected token \(line 2\)$/);
    assert.ok(!ts.ok && ts.line === 2);
    const fenced = await run("```js\nconst a = 1;\nconst b = ;\n```");
    assert.ok(!fenced.ok && fenced.line === 3, "lines count from the first line sent");
  });

  it("says imports and exports are not available", async () => {
    const imported = await run("const x = 1;\nimport fs from 'node:fs';\nreturn fs");
    assert.equal(failureOf(imported, "SYNTAX"), "imports are not available; call tools.*");
    assert.ok(!imported.ok && imported.line === 2);
    const typed = await run("import { A } from './a';\nconst x: A = 1;\nreturn x");
    assert.equal(failureOf(typed, "SYNTAX"), "imports are not available; call tools.*");
    assert.match(
      failureOf(await run("export const x = 1"), "SYNTAX"),
      /^exports are not available/,
    );
    assert.equal(await expectValue("import type { A } from './a';\nconst x: A = 1;\nreturn x"), 1);
  });

  it("reports an uncaught error with its line, and any thrown value by type", async () => {
    const error = await run("const a = 1;\nconst b = null;\nreturn b.c;");
    assert.equal(
      failureOf(error, "THROWN"),
      "TypeError: cannot read property 'c' of null (line 3)",
    );
    assert.ok(!error.ok && error.line === 3);
    const cases: Array<[string, string]> = [
      ["throw 42", "Program threw a non-Error value (number): 42"],
      ["throw 'oops'", 'Program threw a non-Error value (string): "oops"'],
      ["throw null", "Program threw a non-Error value (null): null"],
      ["throw undefined", "Program threw a non-Error value (undefined)"],
      ["throw true", "Program threw a non-Error value (boolean): true"],
      ["throw 10n", "Program threw a non-Error value (bigint): 10"],
      ["throw Symbol('s')", "Program threw a non-Error value (symbol): Symbol(s)"],
      [
        "throw { code: 'E_X', detail: [1] }",
        'Program threw a non-Error value (object): {"code":"E_X","detail":[1]}',
      ],
      ["throw function f() {}", "Program threw a non-Error value (function): function f() {}"],
      ["await Promise.reject('no')", 'Program threw a non-Error value (string): "no"'],
    ];
    for (const [source, message] of cases)
      assert.equal(failureOf(await run(source), "THROWN"), message, source);
  });

  it("ends at once when it waits on a promise that nothing can settle", async () => {
    const outcome = await run("await new Promise(() => {})");
    assert.match(failureOf(outcome, "STALLED"), /can never settle/);
  });
});

describe("options no program could run with", () => {
  const base = {
    source: "return 1",
    tools: TOOLS,
    namespaces: NAMESPACES,
    host: new FakeHost(),
    start: START,
  };

  it("are usage errors, before anything runs", async () => {
    const wrong = [
      { namespaces: { ...NAMESPACES, other: "not_a_tool" } },
      { namespaces: { echo: "echo", "echo.inner": "echo" } },
      { namespaces: { "a..b": "echo" } },
      { limits: { cpuMs: 0 } },
      { limits: { memoryBytes: 1.5 } },
      { limits: { memoryBytes: 1000 } },
      { limits: { stackBytes: 1024 } },
      { start: { nowMs: Number.NaN, seed: START.seed } },
      {
        start: {
          nowMs: 0,
          seed: [1, 2, 3] as unknown as readonly [number, number, number, number],
        },
      },
    ];
    for (const change of wrong)
      await assert.rejects(
        runProgram({ ...base, ...change }),
        (error: unknown) => UsageError.is(error) && error.code === "invalid_program_options",
        JSON.stringify(change),
      );
  });

  it("an aborted signal stops the program before it starts", async () => {
    const outcome = await runProgram({ ...base, signal: AbortSignal.abort() });
    failureOf(outcome, "ABORTED");
  });
});
