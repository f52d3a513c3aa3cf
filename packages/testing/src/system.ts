/**
 * @pseudoclaude/testing/system - what a test sees of the machine it runs on, for authors of
 * plugins that start processes: every process a test started, found by a marker its children
 * inherit, and proof that none is left after close (Linux `/proc`); a script run as an HTTP
 * server on a free port; a full garbage collection before a memory reading.
 */

export { collectGarbage } from "./system/collect-garbage.js";
export {
  commandLine,
  describePids,
  isRunning,
  MARKER_VARIABLE,
  markedProcesses,
  markerEnv,
  newMarker,
  parentOf,
  stillRunningAfter,
} from "./system/processes.js";
export {
  freePort,
  type HttpServerProcess,
  type StartHttpServerOptions,
  startHttpServer,
} from "./system/script-server.js";
