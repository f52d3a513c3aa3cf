import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseArguments, UsageError } from "../src/arguments.js";
import { isValidPackageName, packageNameFrom } from "../src/starter-manifest.js";

describe("create-pseudoclaude's command line", () => {
  it("takes a folder, --name in both spellings, and -y", () => {
    assert.deepEqual(parseArguments(["app", "--name", "my-app", "-y"]), {
      directory: "app",
      name: "my-app",
      yes: true,
      help: false,
      version: false,
    });
    assert.equal(parseArguments(["--name=x"]).name, "x");
  });

  it("refuses an unknown option, a missing value and a second folder", () => {
    assert.throws(() => parseArguments(["--nmae", "x"]), UsageError);
    assert.throws(() => parseArguments(["--name"]), /--name needs a value/);
    assert.throws(() => parseArguments(["a", "b"]), /One folder only/);
  });

  it("makes a valid package name from a folder name", () => {
    assert.equal(packageNameFrom("My Agent!"), "my-agent");
    assert.equal(packageNameFrom("..."), "my-agent");
    assert.ok(isValidPackageName("@me/agent"));
    assert.ok(!isValidPackageName("Agent"));
    assert.ok(!isValidPackageName(""));
  });
});
