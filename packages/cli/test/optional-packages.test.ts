import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DEFAULT_KEY_VARIABLES } from "@pseudoclaude/core/provider";
import { DEFAULT_ADMIN, DEFAULT_INGRESS } from "@pseudoclaude/durable-restate/client";
import { ANTHROPIC_API_KEY_ENV } from "@pseudoclaude/provider-anthropic";
import { OPENAI_API_KEY_ENV } from "@pseudoclaude/provider-openai";
import { DEFAULT_RESTATE_ADMIN, DEFAULT_RESTATE_INGRESS } from "../src/durable/durable-flags.js";
import {
  importOptional,
  isMissingPackage,
  missingPackage,
  packageOf,
} from "../src/optional-package.js";

describe("packages the CLI loads on demand", () => {
  it("names the missing package and the line that installs it", async () => {
    const error = await importOptional(
      "@pseudoclaude/no-such-package/client",
      "Durable runs (--durable restate)",
    ).then(
      () => assert.fail("the import should fail"),
      (thrown: unknown) => thrown,
    );
    assert.equal((error as { code?: string }).code, "missing_package");
    assert.match(
      (error as Error).message,
      /^Durable runs \(--durable restate\) needs the package @pseudoclaude\/no-such-package, which is not installed\. .*npm install @pseudoclaude\/no-such-package /,
    );
    assert.deepEqual((error as { details?: unknown }).details, {
      packages: ["@pseudoclaude/no-such-package"],
      needed_for: "Durable runs (--durable restate)",
    });
  });

  it("keeps the error of a package that is present but fails for another reason", async () => {
    // A package whose own dependency is missing is a broken install, not a missing package.
    const nested = Object.assign(
      new Error("Cannot find package 'left-pad' imported from /x/node_modules/some-pkg/index.js"),
      { code: "ERR_MODULE_NOT_FOUND" },
    );
    assert.equal(isMissingPackage(nested, ["some-pkg"]), false);
    assert.equal(isMissingPackage(nested, ["left-pad"]), true);
    assert.equal(isMissingPackage(new Error("boom"), ["left-pad"]), false);
  });

  it("lists several packages in one install line", () => {
    const error = missingPackage(["a", "@b/c"], "--trace FILE");
    assert.match(error.message, /needs the packages a @b\/c, which are not installed/);
    assert.match(error.message, /npm install a @b\/c \(npm install -g a @b\/c/);
  });

  it("reduces a subpath to its package", () => {
    assert.equal(packageOf("@scope/name/sub/path"), "@scope/name");
    assert.equal(packageOf("name/sub"), "name");
    assert.equal(packageOf("name"), "name");
  });

  it("writes the optional packages' constants as the packages define them", () => {
    // The CLI repeats these so help, flags and consent work without the optional packages.
    assert.equal(DEFAULT_RESTATE_INGRESS, DEFAULT_INGRESS);
    assert.equal(DEFAULT_RESTATE_ADMIN, DEFAULT_ADMIN);
    assert.deepEqual(DEFAULT_KEY_VARIABLES, {
      anthropic: ANTHROPIC_API_KEY_ENV,
      openai: OPENAI_API_KEY_ENV,
      "openai-compatible": OPENAI_API_KEY_ENV,
    });
  });
});
