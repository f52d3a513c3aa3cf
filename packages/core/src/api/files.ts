/**
 * `@pseudoclaude/core/files`: for tool sources that read or write files. A {@link PathGuard}
 * confines every path to a set of roots (the workspace, a skill's folder): paths are resolved
 * through every symbolic link, so neither `..` nor a link can lead outside, and the built-in
 * tools and the Skills plugin confine the same way.
 *
 * @module @pseudoclaude/core/files
 */

export { JsonStateFile, type JsonStateRead } from "../files/json-state-file.js";
export {
  type ConfinedFolder,
  makeConfinedFolder,
  openConfined,
  openConfinedFolder,
  PathSwappedError,
} from "../files/open-confined.js";
export {
  type ConfinedPath,
  createPathGuard,
  DefaultPathGuard,
  type PathCheck,
  type PathGuard,
} from "../files/path-guard.js";
export { type RealPath, realFolder, resolveRealPath } from "../files/real-path.js";
