// An MCP App view's declared CSP (`_meta.ui.csp`) in the studio: the view's page allows exactly
// the origins its resource declares and nothing else, refuses wildcards and anything that is not
// an origin (said beside the view), and Chromium enforces it: the view's fetch of a declared
// origin goes through, of an undeclared one is blocked. The App server is the plugin's fixture
// over real stdio; both origins are local servers of this test.
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import type { Studio } from "@pseudoclaude/studio";
import { launchBrowser } from "./support/browser.js";
import { type CounterStudio, startCounterStudio } from "./support/counter-studio.js";

const VIEW = "/apps/mcp__counter__show_counter/view";

/** A server any page may fetch from (CORS open): the view's origin is opaque. */
async function pingServer(): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { "access-control-allow-origin": "*", "content-type": "text/plain" });
    response.end("pong");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe("an MCP App view's declared CSP in the studio", () => {
  let declared: Awaited<ReturnType<typeof pingServer>>;
  let undeclared: Awaited<ReturnType<typeof pingServer>>;
  let running: CounterStudio;
  let studio: Studio;
  const get = (path: string) =>
    fetch(`http://127.0.0.1:${studio.port}${path}`, {
      headers: { "x-studio-token": studio.token },
    });

  before(async () => {
    declared = await pingServer();
    undeclared = await pingServer();
    const csp = {
      connectDomains: [declared.origin, "https://*.example.com", "javascript:alert(1)"],
      resourceDomains: ["https://cdn.example.com", "https://cdn.example.com/lib.js"],
    };
    running = await startCounterStudio({
      policy: { mode: "bypass" },
      env: {
        FIXTURE_VIEW_CSP: JSON.stringify(csp),
        FIXTURE_VIEW_PROBES: `${declared.origin}/ping,${undeclared.origin}/ping`,
      },
    });
    studio = running.studio;
  });

  after(async () => {
    await running?.close();
    await declared?.close();
    await undeclared?.close();
  });

  it("allows exactly the declared origins and says what it refused", async () => {
    const response = await get(VIEW);
    assert.equal(response.status, 200);
    const policy = response.headers.get("content-security-policy") ?? "";
    const directives = new Map(
      policy.split(";").map((part) => {
        const [name = "", ...values] = part.trim().split(/\s+/);
        return [name, values] as const;
      }),
    );
    assert.deepEqual(directives.get("sandbox"), ["allow-scripts", "allow-forms"]);
    assert.deepEqual(directives.get("default-src"), ["'none'"]);
    assert.deepEqual(directives.get("connect-src"), [declared.origin]);
    assert.deepEqual(directives.get("script-src"), ["'unsafe-inline'", "https://cdn.example.com"]);
    assert.deepEqual(directives.get("frame-src"), ["'none'"]);
    assert.doesNotMatch(policy, /example\.com\/lib|\*|javascript/);
    await response.text();

    const view = (await (await get("/api/apps/mcp__counter__show_counter")).json()) as {
      csp: { refused: string[] };
    };
    assert.equal(view.csp.refused.length, 3, view.csp.refused.join(" | "));
    assert.match(view.csp.refused.join("\n"), /\*\.example\.com.*wildcard/);
    assert.match(view.csp.refused.join("\n"), /javascript: is not allowed/);
    assert.match(view.csp.refused.join("\n"), /lib\.js.*not an origin/);
  });

  it("is enforced by the browser: the declared origin answers, the undeclared one is blocked", async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      // The token goes to the studio only: the view's own fetches carry nothing of it.
      await page.route(`http://127.0.0.1:${studio.port}/**`, (route) =>
        route.continue({
          headers: { ...route.request().headers(), "x-studio-token": studio.token },
        }),
      );
      await page.goto(`http://127.0.0.1:${studio.port}${VIEW}`);
      // Polled from outside the page: a predicate evaluated inside it would be an eval, which
      // the view's own CSP refuses.
      for (const started = Date.now(); (await page.title()) !== "probed"; ) {
        assert.ok(Date.now() - started < 15_000, "the view never finished probing");
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const lines = ((await page.textContent("#probes")) ?? "").split("\n");
      assert.equal(lines[0], `ok ${declared.origin}/ping`);
      assert.match(lines[1] ?? "", new RegExp(`^blocked ${undeclared.origin}/ping`));
    } finally {
      await browser.close();
    }
  });
});
