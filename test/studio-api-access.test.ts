// Who may use the studio's API: the token (or the cookie the printed URL sets), the Host and
// Origin checks, and the loopback-only listener.
import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { networkInterfaces } from "node:os";
import { after, before, describe, it } from "node:test";
import { type Agent } from "@pseudoclaude/core";
import { type Studio } from "@pseudoclaude/studio";
import { type StudioApi, startStudioApi } from "./support/studio-api.js";

/** GET /api/agent with this Host header, through node:http (fetch cannot set Host). */
function statusWithHost(port: number, host: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: "127.0.0.1", port, path: "/api/agent", headers: { host, "x-studio-token": token } },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on("error", reject);
    request.end();
  });
}

describe("the studio's API", () => {
  let harness: StudioApi;
  let agent: Agent;
  let studio: Studio;
  let api: StudioApi["api"];

  before(async () => {
    harness = await startStudioApi();
    ({ agent, studio, api } = harness);
  });
  after(async () => {
    await harness?.close();
  });

  it("refuses a request without the token, through another Host, or from another origin", async () => {
    const base = `http://127.0.0.1:${studio.port}`;
    const bare = await fetch(`${base}/api/agent`);
    assert.equal(bare.status, 401);
    assert.equal(((await bare.json()) as { error: { code: string } }).error.code, "token_required");
    const wrong = await fetch(`${base}/api/agent`, { headers: { "x-studio-token": "nope" } });
    assert.equal(wrong.status, 401);
    const page = await fetch(`${base}/`);
    assert.equal(page.status, 401, "the page itself needs the token");

    // fetch cannot set Host (a forbidden header); a page rebinding a DNS name sends its own.
    const rebound = await statusWithHost(
      studio.port,
      `attacker.example:${studio.port}`,
      studio.token,
    );
    assert.equal(rebound, 421);

    const crossSite = await api("/api/mode", {
      method: "POST",
      headers: { origin: "https://attacker.example" },
      body: JSON.stringify({ mode: "bypass" }),
    });
    assert.equal(crossSite.status, 403);
    assert.equal(agent.mode, "default", "a cross-site request changed nothing");

    // The URL the CLI prints: the token moves into an HttpOnly cookie and out of the address.
    const opened = await fetch(studio.url, { redirect: "manual" });
    assert.equal(opened.status, 303);
    assert.equal(opened.headers.get("location"), "/");
    const cookie = opened.headers.get("set-cookie") ?? "";
    assert.match(cookie, /HttpOnly; SameSite=Strict/);
    const withCookie = await fetch(`${base}/api/agent`, {
      headers: { cookie: cookie.split(";")[0] ?? "" },
    });
    assert.equal(withCookie.status, 200);
  });

  it("listens on 127.0.0.1 and nowhere else", async () => {
    const others = Object.values(networkInterfaces())
      .flat()
      .filter((address) => address && address.family === "IPv4" && !address.internal);
    for (const address of others) {
      const reached = await fetch(`http://${address?.address}:${studio.port}/api/agent`, {
        headers: { "x-studio-token": studio.token },
      }).then(
        () => true,
        () => false,
      );
      assert.equal(reached, false, `reachable on ${address?.address}`);
    }
    const ipv6 = await fetch(`http://[::1]:${studio.port}/api/agent`).then(
      () => true,
      () => false,
    );
    assert.equal(ipv6, false, "reachable on ::1");
  });
});
