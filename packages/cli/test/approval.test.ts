import assert from "node:assert/strict";
import path from "node:path";
import { PassThrough } from "node:stream";
import { describe, it } from "node:test";
import type { ElicitationRequest } from "@pseudoclaude/core";
import type { TempWorkspace } from "@pseudoclaude/testing";
import { createElicitor } from "../src/approval.js";
import type { CliIo } from "../src/cli-io.js";
import { main } from "../src/main.js";
import { ReadlinePrompter } from "../src/prompter.js";
import { TOOLS_PLUGIN, toolsThatRan, withWorkspace } from "./support/cli.js";

/** Collects what the CLI writes. */
class Capture {
  text = "";
  readonly isTTY = false;
  write(chunk: string): boolean {
    this.text += chunk;
    return true;
  }
}

/** In-process io for a person at a terminal who types `answers`. */
function terminal(workspace: TempWorkspace, answers: string) {
  const stdin = new PassThrough();
  stdin.end(answers);
  const io = {
    stdout: new Capture(),
    stderr: new Capture(),
    stdin,
    cwd: workspace.root,
    interactive: true,
  } satisfies CliIo;
  return io;
}

function callWriteNote(workspace: TempWorkspace): string[] {
  return [
    "call",
    "write_note",
    '{"note":"x"}',
    "--json",
    "--plugin",
    TOOLS_PLUGIN,
    // In-process, os.homedir() is the real home: point the user layer into the temp dir.
    "--user-config",
    path.join(workspace.home, ".PseudoClaude", "config.yaml"),
  ];
}

describe("approval at a terminal", () => {
  it("asks on stderr and runs the call when the person answers y", async () => {
    await withWorkspace(async (workspace) => {
      const io = terminal(workspace, "y\n");
      const code = await main(callWriteNote(workspace), io);
      assert.equal(code, 0, io.stderr.text);
      assert.match(io.stderr.text, /Allow write_note \{"note":"x"\}\? \[y\/N\] /);
      const json = JSON.parse(io.stdout.text) as { approval: string; ok: boolean };
      assert.equal(json.approval, "approved");
      assert.deepEqual(toolsThatRan(workspace), ["write_note"]);
    });
  });

  it("denies the call when the person answers anything else, or input ends", async () => {
    await withWorkspace(async (workspace) => {
      for (const answers of ["n\n", ""]) {
        const io = terminal(workspace, answers);
        const code = await main(callWriteNote(workspace), io);
        assert.equal(code, 1);
        const json = JSON.parse(io.stdout.text) as {
          approval: string;
          error: { code: string; message: string };
        };
        assert.equal(json.approval, "rejected");
        assert.equal(json.error.code, "denied");
        assert.match(json.error.message, /declined at the prompt/);
      }
      assert.deepEqual(toolsThatRan(workspace), []);
    });
  });
});

describe("elicitation", () => {
  const request: ElicitationRequest = {
    source: "mcp:demo",
    message: "Who are you?",
    requestedSchema: {
      type: "object",
      properties: {
        name: { type: "string", title: "Name" },
        age: { type: "integer" },
        subscribe: { type: "boolean" },
        color: { type: "string", enum: ["red", "green"] },
        nickname: { type: "string" },
      },
      required: ["name", "age"],
    },
  };

  function elicitor(answers: string, interactive: boolean) {
    const stdin = new PassThrough();
    stdin.end(answers);
    const stderr = new Capture();
    const io: CliIo = { stdout: new Capture(), stderr, stdin, cwd: process.cwd() };
    const prompter = new ReadlinePrompter(io);
    return {
      elicit: createElicitor({ yes: false, interactive, prompter, stderr }),
      stderr,
      prompter,
    };
  }

  it("declines at once when nobody can answer", async () => {
    const { elicit, stderr } = elicitor("y\n", false);
    assert.deepEqual(await elicit(request), { action: "decline" });
    assert.equal(stderr.text, "");
  });

  it("asks each field at a terminal, converts the answers and asks again after a bad one", async () => {
    const { elicit, stderr, prompter } = elicitor("y\nAda\nold\n36\nyes\nred\n\n", true);
    try {
      const response = await elicit(request);
      assert.deepEqual(response, {
        action: "accept",
        content: { name: "Ada", age: 36, subscribe: true, color: "red" },
      });
      assert.match(stderr.text, /mcp:demo asks: Who are you\?/);
      assert.match(stderr.text, /age: "old" is not a number\./);
    } finally {
      prompter.close();
    }
  });

  it("shows the whole address of a URL request and accepts only on yes, opening nothing", async () => {
    const urlRequest: ElicitationRequest = {
      source: "mcp:bank",
      message: "Sign in to continue",
      mode: "url",
      url: "https://bank.example.com/login?session=1",
      requestedSchema: { type: "object", properties: {} },
    };
    const yes = elicitor("y\n", true);
    try {
      assert.deepEqual(await yes.elicit(urlRequest), { action: "accept" });
      assert.match(
        yes.stderr.text,
        /mcp:bank asks you to open a page: Sign in to continue\n {2}https:\/\/bank\.example\.com\/login\?session=1/,
      );
    } finally {
      yes.prompter.close();
    }
    const no = elicitor("\n", true);
    try {
      assert.deepEqual(await no.elicit(urlRequest), { action: "decline" });
    } finally {
      no.prompter.close();
    }
  });

  it("declines when the person does not want to answer", async () => {
    const { elicit, prompter } = elicitor("n\n", true);
    try {
      assert.deepEqual(await elicit(request), { action: "decline" });
    } finally {
      prompter.close();
    }
  });
});
