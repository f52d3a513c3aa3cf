// Guest code run before the program: the globals a program gets (`tools`, `callTool`,
// `console`, `ToolError`) and the two functions the host drives it with (`run`, `settle`).
// Evaluated as a function `(host, configJson)`; `host` is a parameter, never a global, so the
// program cannot reach it. Everything the bridge relies on (JSON, Promise's then, Reflect.apply)
// is captured before the program runs: a program that replaces them changes only itself.
//
// Arguments are serialised here, inside the VM, so getters and toJSON run under the program's
// own limits, and the host only ever reads strings. A call's promise lives in the VM; the host
// settles it later by its index. Host functions answer synchronously and never run a tool.
export const BRIDGE_PRELUDE = `(function (host, configJson) {
  "use strict";
  const stringify = JSON.stringify, parse = JSON.parse, apply = Reflect.apply;
  const P = Promise, then = Promise.prototype.then, S = String, ErrorClass = Error, slice = String.prototype.slice;
  const defineProperty = Object.defineProperty, freeze = Object.freeze, create = Object.create;
  const isArray = Array.isArray, getPrototypeOf = Object.getPrototypeOf, ObjectProto = Object.prototype;
  const config = parse(configJson);
  const allowed = create(null);
  for (const name of config.tools) allowed[name] = true;

  class ToolError extends ErrorClass {
    constructor(code, message, tool) {
      super(message);
      // Defined, not assigned: a setter planted on Object.prototype must not see them.
      defineProperty(this, "code", { value: S(code), writable: true, configurable: true, enumerable: true });
      defineProperty(this, "tool", { value: tool === undefined ? undefined : S(tool), writable: true, configurable: true, enumerable: true });
    }
  }
  defineProperty(ToolError.prototype, "name", { value: "ToolError", writable: true, configurable: true });
  const rejected = (error) => new P((_, reject) => reject(error));
  const errorText = (e) => { try { return e instanceof ErrorClass ? S(e.message) : S(e); } catch { return "unprintable"; } };

  const pending = create(null);
  const call = (name, args) => {
    if (typeof name !== "string" || allowed[name] !== true)
      return rejected(new ToolError("unknown_tool", "No tool named " + stringify(S(name)) + " is available to this program; the tools object lists those that are.", S(name)));
    if (args === undefined) args = {};
    const proto = typeof args === "object" && args !== null && !isArray(args) ? getPrototypeOf(args) : undefined;
    if (proto !== ObjectProto && proto !== null)
      return rejected(new ToolError("invalid_arguments", "Arguments for " + name + " must be one plain object, like " + name + "({ key: value }).", name));
    let json;
    try { json = stringify(args); } catch (e) {
      return rejected(new ToolError("invalid_arguments", "Arguments for " + name + " cannot be converted to JSON: " + errorText(e), name));
    }
    const id = host.call(name, json);
    if (typeof id !== "number") {
      const refusal = parse(id);
      return rejected(new ToolError(refusal.code, refusal.message, name));
    }
    return new P((resolve, reject) => { pending[id] = [resolve, reject, name]; });
  };
  const settle = (id, ok, payload) => {
    const waiting = pending[id];
    if (waiting === undefined) return;
    delete pending[id];
    try {
      const answer = parse(payload);
      if (ok) waiting[0](answer);
      else waiting[1](new ToolError(answer.code, answer.message, waiting[2]));
    } catch (e) { waiting[1](e); }
  };

  const lock = (name, value) => defineProperty(globalThis, name, { value, writable: false, configurable: false, enumerable: false });
  const tools = create(null);
  for (const [path, name] of config.paths) {
    let node = tools;
    for (let i = 0; i < path.length - 1; i++) node = node[path[i]] ??= create(null);
    const leaf = path[path.length - 1];
    const fn = (args) => call(name, args);
    defineProperty(fn, "name", { value: leaf });
    node[leaf] = fn;
  }
  const deepFreeze = (o) => { for (const key in o) deepFreeze(o[key]); return freeze(o); };
  lock("tools", deepFreeze(tools));
  lock("callTool", (name, args) => call(name, args));
  lock("ToolError", ToolError);

  let logOpen = true;
  const show = (v) => {
    if (typeof v === "string") return v;
    if (v instanceof ErrorClass) return S(v.name) + ": " + S(v.message);
    try { const s = stringify(v); return s === undefined ? S(v) : s; } catch { try { return S(v); } catch { return "[unprintable]"; } }
  };
  const logger = (level) => (...args) => {
    if (!logOpen) return;
    let text = "";
    for (let i = 0; i < args.length; i++) text += (i ? " " : "") + show(args[i]);
    // One character past the budget (each is at least a byte) still tells the host to cut.
    if (text.length > config.logChars) text = apply(slice, text, [0, config.logChars + 1]);
    logOpen = host.log(level, text) === 1;
  };
  lock("console", freeze({ log: logger("log"), info: logger("info"), warn: logger("warn"), error: logger("error"), debug: logger("debug") }));

  // How a failure looks to the host: a JSON string it reads without touching guest objects.
  const describe = (e) => {
    try {
      if (e instanceof ErrorClass) {
        const code = e instanceof ToolError ? S(e.code) : undefined;
        return stringify({ kind: "error", name: S(e.name), message: S(e.message), stack: S(e.stack ?? ""), code });
      }
      const type = e === null ? "null" : typeof e;
      let shown;
      try { shown = stringify(e); } catch { shown = undefined; }
      if (typeof shown !== "string") try { shown = S(e); } catch { shown = "[unprintable]"; }
      return stringify({ kind: "value", type, value: shown.slice(0, 200) });
    } catch { return '{"kind":"value","type":"unknown","value":"[unprintable]"}'; }
  };
  const finish = (value) => {
    if (value === undefined) return host.done(1, "null");
    let json;
    try { json = stringify(value); } catch (e) {
      return host.done(0, stringify({ kind: "result", type: typeof value, reason: errorText(e) }));
    }
    if (typeof json !== "string") return host.done(0, stringify({ kind: "result", type: typeof value, reason: "" }));
    host.done(1, json);
  };
  // run(fn): start the program; it reports exactly once, through host.done(ok, json).
  const run = (fn) => {
    let promise;
    try { promise = fn(); } catch (e) { host.done(0, describe(e)); return; }
    apply(then, promise, [finish, (e) => host.done(0, describe(e))]);
  };
  return [run, settle];
})`;
