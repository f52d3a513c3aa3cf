// The `/system` example of @pseudoclaude/testing's README.md: compiled by CI.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import {
  markedProcesses,
  markerEnv,
  newMarker,
  stillRunningAfter,
} from "@pseudoclaude/testing/system";

// #region system
const marker = newMarker();
// What your tool source starts gets the marker; its descendants inherit it.
const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60_000)"], {
  env: { ...process.env, ...markerEnv(marker) },
});
child.kill(); // in a real test: `await agent.close()`
await once(child, "exit");
assert.deepEqual(await stillRunningAfter(markedProcesses(marker), 2_000), []);
// #endregion
