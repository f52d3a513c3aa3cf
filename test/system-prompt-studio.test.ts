// The studio shows the system prompt as sent: `pseudoclaude studio` as a person starts it, its
// API's `/api/agent` with the prompt and its size in estimated tokens, and the Prompt page in a
// real browser listing each section (the environment, each instruction file) with its source.
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { estimateRequestTokens } from "@pseudoclaude/core";
import { createTempWorkspace, type TempWorkspace } from "@pseudoclaude/testing";
import { useBrowser } from "./support/browser.js";
import { type StudioProcess, startStudioCli } from "./support/studio-process.js";

describe("the studio's system prompt", () => {
  const browser = useBrowser();
  let workspace: TempWorkspace;
  let studio: StudioProcess;

  before(async () => {
    workspace = await createTempWorkspace("pc-studio-prompt-");
    await workspace.write("CLAUDE.md", "STUDIO-PROJECT-RULE: small commits.\n");
    await workspace.write("script.json", JSON.stringify([{ text: "ok" }]));
    studio = await startStudioCli(workspace, [
      "--script",
      "script.json",
      "--append-system-prompt",
      "STUDIO-APPENDED",
    ]);
  });
  after(async () => {
    await studio?.stop();
    await workspace?.cleanup();
  });

  it("serves the prompt as the next request sends it, with its size in estimated tokens", async () => {
    const response = await fetch(`${studio.base}/api/agent`, {
      headers: { "x-studio-token": studio.token },
    });
    assert.equal(response.status, 200);
    const info = (await response.json()) as { systemPrompt: string; systemPromptTokens: number };
    assert.match(info.systemPrompt, /^You are PseudoClaude/);
    assert.match(info.systemPrompt, /STUDIO-APPENDED/);
    assert.match(info.systemPrompt, /## CLAUDE\.md \(project instructions[^\n]*\n\(from [^\n]+\)/);
    assert.equal(
      info.systemPromptTokens,
      estimateRequestTokens({ system: info.systemPrompt, messages: [], tools: [] }),
    );
    assert.ok(info.systemPromptTokens > 100);
  });

  it("the Prompt page lists each section with its source, the size, and the whole text", async (t) => {
    const { page, consoleErrors, failedRequests } = await browser.openPage(t);
    await page.goto(studio.url);
    await page.getByRole("link", { name: "Prompt" }).click();
    const size = page.getByTestId("prompt-size");
    await size.waitFor();
    assert.match((await size.textContent()) ?? "", /[\d,]+ characters, about [\d,]+ tokens/);
    const sections = await page.getByTestId("prompt-sections").locator("li").allTextContents();
    assert.match(sections[0] ?? "", /^Environment/);
    assert.ok(
      sections.some(
        (text) =>
          text.startsWith("CLAUDE.md (project instructions") &&
          text.includes(path.join(workspace.root, "CLAUDE.md")),
      ),
      sections.join("\n"),
    );
    assert.match(
      (await page.getByTestId("system-prompt").textContent()) ?? "",
      /STUDIO-PROJECT-RULE: small commits\./,
    );
    assert.deepEqual(consoleErrors, []);
    assert.deepEqual(failedRequests, []);
  });
});
