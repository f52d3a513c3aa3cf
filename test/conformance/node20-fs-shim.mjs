// Node 20 has no fs.globSync (Node 22+), which the conformance CLI imports at load time.
// Patching `fs` in a preload does not help: ESM named imports bind to the builtin module's
// export list. A resolve hook instead hands the conformance package (and only it) a wrapper
// module that re-exports `node:fs` plus a small globSync. Pass it as
// `node --import <this file> <cli>`, never through NODE_OPTIONS, or the client under test
// would inherit the hook too.
import { register } from "node:module";

const wrapper = `
import * as fs from "node:fs";
import path from "node:path";
export * from "node:fs";
export default fs.default;
export function globSync(pattern, options = {}) {
  const cwd = String(options.cwd ?? process.cwd());
  const patterns = Array.isArray(pattern) ? pattern : [pattern];
  return fs.readdirSync(cwd, { recursive: true }).map(String)
    .filter((rel) => patterns.some((p) => path.matchesGlob(rel.split(path.sep).join("/"), p)));
}`;

const hooks = `
const WRAPPER = "data:text/javascript," + encodeURIComponent(${JSON.stringify(wrapper)});
export async function resolve(specifier, context, next) {
  if (
    (specifier === "fs" || specifier === "node:fs") &&
    context.parentURL?.includes("/@modelcontextprotocol/conformance/")
  ) {
    return { url: WRAPPER, shortCircuit: true };
  }
  return next(specifier, context);
}`;

register(`data:text/javascript,${encodeURIComponent(hooks)}`);
