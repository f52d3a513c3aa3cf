import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DurableClient, DurableRequestError, type DurableRequestErrorCode } from "../src/client.js";

describe("DurableRequestError.is", () => {
  it("narrows a caught value to the error with its typed code", async () => {
    // Port 9 (discard) on loopback: nothing listens, so the request cannot reach Restate.
    const client = new DurableClient({ admin: "http://127.0.0.1:9", timeoutMs: 5_000 });
    const caught: unknown = await client.sessions().then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.ok(DurableRequestError.is(caught), `got ${String(caught)}`);
    const code: DurableRequestErrorCode = caught.code;
    assert.equal(code, "restate_unreachable");
  });

  it("recognises one made by another copy of the module, and nothing else", () => {
    const foreign = Object.assign(new Error("refused"), {
      name: "DurableRequestError",
      code: "restate_error",
    });
    assert.equal(DurableRequestError.is(foreign), true);
    assert.equal(DurableRequestError.is(new Error("refused")), false);
    assert.equal(DurableRequestError.is({ name: "DurableRequestError", code: "x" }), false);
  });
});
