// Loaded with `node --import` by `npm test` (beside isolated-home.js) in every test file's
// process. A package's own tests import its internals (`../src/x.js`) and also packages that
// import its public entry (`@pseudoclaude/testing` imports `@pseudoclaude/core`); were that entry
// the bundle (dist/bundle), such a process would hold two copies of the package's classes and
// state. So in a package test's process every package resolves to its modules as compiled, one
// per source file (the `pseudoclaude-unbundled` export condition); root tests, like users,
// load the bundles.
import { register } from "node:module";

const main = process.argv[1] ?? "";

if (/[\\/](?:packages|plugins)[\\/][^\\/]+[\\/]dist[\\/]test[\\/]/.test(main))
  register("./unbundled-resolve.js", import.meta.url);
