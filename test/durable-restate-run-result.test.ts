// A durable run on the real Restate server from npm (loopback, started and stopped here)
// returns what the in-process agent returns for the same script, MCP and built-in tools alike.
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { createAgent, type RunResult } from "@pseudoclaude/core";
import type { ScriptedStep } from "@pseudoclaude/testing";
import { ledgerAgentOptions } from "./fixtures/durable/ledger-agent.js";
import { comparable, type DurableRestate, startDurableRestate } from "./support/durable-restate.js";
import { freePort, type RestateServer } from "./support/restate-server.js";

const TIMEOUT = { timeout: 120_000 };

let restate: DurableRestate;
let server: RestateServer;
let dir: string;
before(async () => {
  restate = await startDurableRestate();
  ({ server, dir } = restate);
});
after(async () => {
  await restate?.stop();
});

describe("durable runs on Restate (the real server)", () => {
  it(
    "a run with an MCP tool and a built-in tool returns what the in-process agent returns",
    TIMEOUT,
    async () => {
      const script: ScriptedStep[] = [
        {
          tool_calls: [
            { id: "c1", name: "mcp__ledger__lookup", arguments: { id: "a" } },
            { id: "c2", name: "write_file", arguments: { path: "notes.txt", content: "hi\n" } },
          ],
        },
        { text: "done" },
      ];
      const ledger = path.join(dir, "same.log");
      const local = await createAgent(ledgerAgentOptions({ workspace: dir, script, ledger }));
      const expected = await local.run("go").finally(() => local.close());
      const port = await freePort();
      const worker = await restate.startWorker(port, script, ledger);
      try {
        await server.register(`http://127.0.0.1:${port}`);
        const run = await restate.submit("same-result", "go");
        const durable = await run.result();
        // "Replaced" against "Created": the in-process run wrote the file first.
        const normalize = (result: RunResult) =>
          JSON.stringify(comparable(result))
            .replace(/Replaced notes\.txt/, "Created notes.txt")
            .replace(/"created":false/, '"created":true');
        assert.equal(normalize(durable), normalize(expected));
      } finally {
        await worker.kill();
      }
    },
  );
});
