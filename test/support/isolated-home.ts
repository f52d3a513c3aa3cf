// Loaded with `node --import` by `npm test` (and the coverage run) in the test runner and, by
// inheritance of its flags, in every test file's process: the whole run gets one temporary
// HOME, so nothing a test does without naming a home of its own (an OAuth discovery state
// saved to the default credentials file, a session, an approval) reaches the user's. The
// process that made it removes it when it exits.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const MARK = "PSEUDOCLAUDE_TEST_HOME";

if (!process.env[MARK]) {
  const home = mkdtempSync(path.join(os.tmpdir(), "pseudoclaude-test-home-"));
  process.env[MARK] = home;
  process.env.HOME = home;
  process.env.USERPROFILE = home;
  process.on("exit", () => rmSync(home, { recursive: true, force: true }));
}
