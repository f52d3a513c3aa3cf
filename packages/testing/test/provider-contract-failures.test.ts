// The contract suite can fail: run on providers broken on purpose (fixtures/broken-providers)
// in a child process, it reports exactly the cases each break violates, and passes the rest.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const FIXTURES = new URL("./fixtures/", import.meta.url);
const SUITES = fileURLToPath(new URL("broken-providers.js", FIXTURES));
const REPORTER = fileURLToPath(new URL("outcome-reporter.js", FIXTURES));

interface Outcome {
  passed: boolean;
  name: string;
  nesting: number;
}

/** What the suites of `file` reported, run by `node --test` in a process of its own. */
function runSuites(file: string): Promise<Outcome[]> {
  // Without this variable the child is a test run of its own, not a part of this one.
  const { NODE_TEST_CONTEXT: _parent, ...env } = process.env;
  const args = ["--test", `--test-reporter=${REPORTER}`, "--test-reporter-destination=stdout"];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [...args, file], { env, timeout: 60_000 }, (error, stdout) => {
      // The child fails when a case does, as it must here; no output at all is an error.
      if (stdout.trim() === "") return reject(error ?? new Error("The suites reported nothing."));
      resolve(
        stdout
          .trim()
          .split("\n")
          .map((line) => JSON.parse(line) as Outcome),
      );
    });
  });
}

/** The failed cases of each suite; a suite's cases report before the suite does. */
function failuresBySuite(outcomes: readonly Outcome[]): Record<string, string[]> {
  const failed: Record<string, string[]> = {};
  let cases: string[] = [];
  for (const { passed, name, nesting } of outcomes) {
    if (nesting === 0) {
      failed[name] = cases;
      cases = [];
    } else if (!passed) cases.push(name);
  }
  return failed;
}

describe("the provider contract suite", () => {
  it("fails a provider that drops usage, and one that ignores its abort signal", async () => {
    const outcomes = await runSuites(SUITES);
    assert.deepEqual(failuresBySuite(outcomes), {
      "Provider contract: drops usage": ["streams text deltas, then usage and the stop reason"],
      "Provider contract: ignores abort": [
        "stops quietly when the request's signal aborts, and closes the connection",
      ],
    });
    // Every other case passes: each break is all the suite sees.
    const cases = outcomes.filter((outcome) => outcome.nesting > 0);
    assert.equal(cases.filter((outcome) => outcome.passed).length, cases.length - 2);
  });
});
