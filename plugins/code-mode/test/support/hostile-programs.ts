// Programs written to break the sandbox, each with how it must end. `shows` is matched against
// the failure's message, or against the JSON of the value when the program may succeed.
import type { ProgramErrorCode, SandboxLimits } from "../../src/sandbox/index.js";

/** One hostile program and the outcome it must have. */
export interface HostileProgram {
  name: string;
  source: string;
  limits?: Partial<SandboxLimits>;
  ends: ProgramErrorCode | "ok";
  shows: RegExp;
  /** A warning the outcome must carry. */
  warns?: RegExp;
}

const CPU = { cpuMs: 150 };
const SMALL = { memoryBytes: 4 * 1024 * 1024 };

/** Programs that attack the VM itself: time, memory, stack. */
export const RESOURCE_ATTACKS: HostileProgram[] = [
  {
    name: "infinite loop",
    source: "while (true) {}",
    limits: CPU,
    ends: "CPU_LIMIT",
    shows: /CPU time/,
  },
  {
    name: "infinite loops inside catch and finally",
    source: "for (;;) { try { while (true) {} } catch {} finally { for (;;) {} } }",
    limits: CPU,
    ends: "CPU_LIMIT",
    shows: /CPU time/,
  },
  {
    name: "busy loop of microtasks",
    source: "for (;;) await null;",
    limits: CPU,
    ends: "CPU_LIMIT",
    shows: /CPU time/,
  },
  {
    name: "promise storm (each job schedules two more)",
    source:
      "function f() { Promise.resolve().then(f); Promise.resolve().then(f) } f(); await new Promise(() => {})",
    limits: CPU,
    ends: "CPU_LIMIT",
    shows: /CPU time/,
  },
  {
    name: "memory bomb of objects",
    source: "const a = []; for (;;) a.push({ i: a.length, s: 'x' + a.length });",
    limits: SMALL,
    ends: "MEMORY_LIMIT",
    shows: /out of memory/,
  },
  {
    name: "one huge string",
    source: "return 'x'.repeat(2 ** 29).length",
    ends: "MEMORY_LIMIT",
    shows: /out of memory/,
  },
  {
    name: "string doubling",
    source: "let s = 'x'; for (;;) s += s;",
    ends: "MEMORY_LIMIT",
    shows: /string too long|out of memory/,
  },
  {
    name: "out of memory caught and ignored, then looping on",
    source:
      "const keep = []; try { for (;;) keep.push('y'.repeat(1 << 16)) } catch {} for (;;) keep.push(1);",
    limits: { ...SMALL, cpuMs: 300 },
    ends: "CPU_LIMIT",
    shows: /CPU time/,
  },
  {
    name: "deep recursion",
    source: "const f = (n) => f(n + 1) + 1;\nreturn f(0);",
    ends: "STACK_OVERFLOW",
    shows: /line 1/,
  },
  {
    name: "recursive getter",
    source: "const o = { get x() { return this.x } }; return o.x",
    ends: "STACK_OVERFLOW",
    shows: /call stack/,
  },
  {
    name: "recursive proxy",
    source: "return new Proxy({}, { get(t, k, r) { return r[k] } }).x",
    ends: "STACK_OVERFLOW",
    shows: /call stack/,
  },
  {
    // QuickJS's cycle check makes this quadratic inside ONE built-in call (about 10 s at a
    // 512 KiB stack), which its interrupt handler never sees: the worker is ended by force.
    name: "nested JSON.stringify 200,000 levels deep (seconds inside one built-in)",
    source:
      "let o = {}; let c = o; for (let i = 0; i < 200000; i++) { c.a = {}; c = c.a } return JSON.stringify(o).length",
    limits: { cpuMs: 300 },
    ends: "CPU_LIMIT",
    shows: /stopped by force/,
  },
  {
    name: "deep recursion on a 4 MiB stack (overflows the worker thread's own stack)",
    source: "const f = (n) => f(n + 1) + 1;\nreturn f(0);",
    limits: { stackBytes: 4 * 1024 * 1024 },
    ends: "STACK_OVERFLOW",
    shows: /nests too deeply/,
  },
  {
    name: "a getter that never ends in the arguments of a call",
    source: "return await tools.echo({ get a() { for (;;) {} } })",
    limits: CPU,
    ends: "CPU_LIMIT",
    shows: /CPU time/,
  },
  {
    name: "a thrown error whose message never ends",
    source:
      "const e = new Error('x'); Object.defineProperty(e, 'message', { get() { for (;;) {} } }); throw e",
    limits: CPU,
    ends: "CPU_LIMIT",
    shows: /CPU time/,
  },
  {
    name: "a huge return value",
    source: "return 'x'.repeat(5_000_000)",
    ends: "OUTPUT_LIMIT",
    shows: /5000002 bytes of JSON/,
  },
  {
    name: "a huge argument",
    source: "return await tools.echo({ big: 'x'.repeat(2_000_000) })",
    ends: "THROWN",
    shows: /^ToolError \(invalid_arguments\): Arguments for echo are 2000010 bytes/,
  },
  {
    name: "console flood",
    source: "for (let i = 0; i < 100000; i++) console.log('line', i); return 'ok'",
    ends: "ok",
    shows: /"ok"/,
    warns: /Console output was cut at 16384 bytes/,
  },
  {
    name: "escaping the function wrapper",
    source: "return 1 }); while (true) {} (async () => {",
    limits: CPU,
    ends: "SYNTAX",
    shows: /SyntaxError/,
  },
];

/** Programs that attack the bridge, the globals or the host behind them. */
export const BRIDGE_ATTACKS: HostileProgram[] = [
  {
    name: "constructor.constructor('return process')()",
    source:
      "return ({}).constructor.constructor('return [typeof process, typeof require, typeof fetch, typeof setTimeout, typeof host]')()",
    ends: "ok",
    shows: /^\["undefined","undefined","undefined","undefined","undefined"\]$/,
  },
  {
    name: "Function('return process')()",
    source: "return Function('return process')()",
    ends: "THROWN",
    shows: /ReferenceError: 'process' is not defined/,
  },
  {
    name: "a tool function's constructor and globals reach only the guest",
    source:
      "const g = tools.echo.constructor('return this')(); return [g === globalThis, ['host', 'run', 'settle', 'pending', 'config'].map((k) => typeof g[k])]",
    ends: "ok",
    shows: /^\[true,\["undefined","undefined","undefined","undefined","undefined"\]\]$/,
  },
  {
    name: "prototype pollution and replaced JSON and Promise.prototype.then",
    source:
      "Object.prototype.polluted = 1; JSON.stringify = () => '\"evil\"'; JSON.parse = () => 'evil'; Promise.prototype.then = function () { throw new Error('hijacked') }; const r = await tools.echo({ a: 1 }); return { a: r.a, keys: Object.keys(r) }",
    ends: "ok",
    shows: /^\{"a":1,"keys":\["a"\]\}$/,
  },
  {
    name: "replaced Function, Reflect, Object and Array helpers",
    source:
      "Function.prototype.call = null; Function.prototype.apply = null; Reflect.apply = null; Array.prototype.push = null; Object.freeze = null; Object.defineProperty = null; Object.getPrototypeOf = null; Array.isArray = null; return (await tools.echo({ a: 1 })).a",
    ends: "ok",
    shows: /^1$/,
  },
  {
    name: "a setter planted on Object.prototype for a ToolError's fields",
    source:
      "Object.defineProperty(Object.prototype, 'code', { set() { throw 1 }, get() { return 'hijacked' } }); try { await tools.fail({}) } catch (e) { return [e.code, e.tool] }",
    ends: "ok",
    shows: /^\["denied","fail"\]$/,
  },
  {
    name: "tools, callTool and console set to null",
    source:
      "tools = null; globalThis.tools = null; callTool = null; console = null; return [typeof tools.echo, typeof callTool, typeof console.log]",
    ends: "ok",
    shows: /^\["function","function","function"\]$/,
  },
  {
    name: "tool-call storm in a loop",
    source: "for (;;) tools.echo({})",
    ends: "CALL_LIMIT",
    shows: /more than 200 tool calls/,
  },
  {
    name: "Promise.all of 1000 calls",
    source:
      "return (await Promise.all(Array.from({ length: 1000 }, (_, i) => tools.echo({ i })))).length",
    ends: "CALL_LIMIT",
    shows: /more than 200 tool calls/,
  },
  {
    name: "a call made after the program returned",
    source: "(async () => { await null; await null; tools.echo({ late: true }) })(); return 'done'",
    ends: "ok",
    shows: /^"done"$/,
    warns: /1 tool call\(s\) made after the program returned were refused/,
  },
  {
    name: "a call left running at return",
    source: "const first = tools.echo({}); tools.slow({}); await first; return 'returned early'",
    ends: "ok",
    shows: /^"returned early"$/,
    warns: /1 tool call\(s\) had not finished when the program returned \(missing await\?\)/,
  },
  {
    name: "a promise that never settles",
    source: "await new Promise(() => {})",
    ends: "STALLED",
    shows: /can never settle/,
  },
  {
    name: "a cyclic result",
    source: "const o = {}; o.o = o; return o",
    ends: "THROWN",
    shows: /cannot be converted to JSON \(circular reference\)/,
  },
  {
    name: "a BigInt result",
    source: "return 10n",
    ends: "THROWN",
    shows: /returned value \(bigint\) cannot be converted to JSON/,
  },
  {
    name: "a Symbol result",
    source: "return Symbol('s')",
    ends: "THROWN",
    shows: /returned value \(symbol\) cannot be converted to JSON/,
  },
  {
    name: "a function result",
    source: "return () => 1",
    ends: "THROWN",
    shows: /returned value \(function\) cannot be converted to JSON/,
  },
  {
    name: "a result whose toJSON throws",
    source: "return { toJSON() { throw new Error('no') } }",
    ends: "THROWN",
    shows: /cannot be converted to JSON \(no\)/,
  },
  {
    name: "throw 42",
    source: "throw 42",
    ends: "THROWN",
    shows: /^Program threw a non-Error value \(number\): 42$/,
  },
  {
    name: "throw undefined",
    source: "throw undefined",
    ends: "THROWN",
    shows: /^Program threw a non-Error value \(undefined\)$/,
  },
  {
    name: "throw an object with no prototype",
    source: "throw Object.create(null)",
    ends: "THROWN",
    shows: /\(object\): \{\}$/,
  },
  {
    name: "throw a proxy that throws on every question",
    source:
      "throw new Proxy({}, { get() { throw 1 }, ownKeys() { throw 1 }, getPrototypeOf() { throw 1 } })",
    ends: "THROWN",
    shows: /^Program threw a non-Error value \(\w+\): \[unprintable\]$/,
  },
  {
    name: "an Error subclass that renames itself",
    source:
      "class E extends Error { constructor(m) { super(m); this.name = 'E' } }\nthrow new E('custom')",
    ends: "THROWN",
    shows: /^E: custom \(line 1\)$/,
  },
];
