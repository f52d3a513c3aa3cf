// The studio's load as the first-paint test and the benchmark's studio row both measure it:
// an agent with 50 tools whose conversation is a 200-turn session, and one load of the page in
// a fresh browser context, timed the same way by both.
import {
  type Agent,
  createAgent,
  defineTool,
  MemorySessionStore,
  type SessionEntry,
} from "@pseudoclaude/core";
import { ApprovalDesk, type Studio, startStudio } from "@pseudoclaude/studio";
import { ScriptedProvider } from "@pseudoclaude/testing";
import type { Browser } from "playwright-core";
import { z } from "zod";

/** 50 tools of the shape real ones have: four parameters, half of them read-only. */
export function fiftyTools() {
  return Array.from({ length: 50 }, (_, index) =>
    defineTool({
      name: `tool_${String(index).padStart(2, "0")}`,
      description: `Tool number ${index}: looks things up in a catalogue of ${index} shelves.`,
      input: z.object({
        query: z.string().describe("What to look for"),
        limit: z.number().int().min(1).max(100).default(10),
        tags: z.array(z.string()).optional(),
        mode: z.enum(["fast", "thorough"]).optional(),
      }),
      safety: index % 2 === 0 ? "read_only" : "side_effect",
      execute: ({ query }) => `found ${query}`,
    }),
  );
}

/** A session of 200 model turns, each with a tool call, its result and an answer. */
export function longSession(id: string): SessionEntry[] {
  const at = new Date().toISOString();
  const entries: SessionEntry[] = [
    { type: "session", version: 1, id, workspace: process.cwd(), created: at },
  ];
  for (let turn = 0; turn < 200; turn++)
    entries.push({
      type: "turn",
      at,
      usage: { inputTokens: 1200 + turn, outputTokens: 80 },
      messages: [
        { role: "user", content: `Question ${turn}: what is on shelf ${turn}?` },
        {
          role: "assistant",
          text: `Looking at shelf ${turn}.`,
          toolCalls: [{ id: `c${turn}`, name: "tool_01", arguments: { query: `shelf ${turn}` } }],
        },
        {
          role: "tool",
          callId: `c${turn}`,
          toolName: "tool_01",
          result: {
            ok: true,
            content: [{ type: "text", text: `Shelf ${turn} holds ${"books ".repeat(40)}` }],
            metadata: {},
          },
        },
        { role: "assistant", text: `Shelf ${turn} holds books.`, toolCalls: [] },
      ],
    });
  return entries;
}

/** The agent and its studio, for as long as the loads take. */
export interface LoadedStudio {
  agent: Agent;
  studio: Studio;
  close(): Promise<void>;
}

/** An agent with the 50 tools and the 200-turn session "long" as its conversation, in a studio. */
export async function startLoadedStudio(): Promise<LoadedStudio> {
  const store = new MemorySessionStore();
  await store.append("long", longSession("long"));
  const desk = new ApprovalDesk();
  const agent = await createAgent({
    tools: fiftyTools(),
    provider: new ScriptedProvider([]),
    config: false,
    approve: desk.approver,
    session: { store, id: "long" },
  });
  const studio = await startStudio({ agent, desk });
  return {
    agent,
    studio,
    async close() {
      await studio.close();
      await agent.close();
    },
  };
}

/** One load, in ms from navigation start, and what the page weighed and said. */
export interface StudioLoad {
  /** First contentful paint. */
  fcp: number;
  /** The 50th tool row on screen. */
  listed: number;
  /** From a click on the long session to its last message on screen. */
  transcript: number;
  /** HTML, script and CSS, encoded (the API's answers not counted). */
  bytes: number;
  toolRows: number;
  /** `console.error` calls and uncaught exceptions on the page. */
  errors: string[];
}

/** Load the studio at `url` in a fresh context of `browser`, and time it. */
export async function loadStudio(browser: Browser, url: string): Promise<StudioLoad> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    await page.goto(url);
    // The page's CSP forbids eval, so waitForFunction cannot poll: wait for the 50th row.
    await page.locator("[data-tool]").nth(49).waitFor();
    const listed = (await page.evaluate("performance.now()")) as number;
    const toolRows = await page.locator("[data-tool]").count();
    const fcp = (await page.evaluate(
      "performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1",
    )) as number;
    const bytes = (await page.evaluate(
      "performance.getEntriesByType('resource').filter((entry) => !entry.name.includes('/api/')).reduce((sum, entry) => sum + entry.encodedBodySize, performance.getEntriesByType('navigation')[0].encodedBodySize)",
    )) as number;
    await page.click('a[href="#/sessions"]');
    await page.waitForSelector('[data-session="long"]');
    const clicked = (await page.evaluate("performance.now()")) as number;
    await page.click('[data-session="long"]');
    await page.waitForSelector("text=Shelf 199 holds books.");
    const transcript = ((await page.evaluate("performance.now()")) as number) - clicked;
    return { fcp, listed, transcript, bytes, toolRows, errors };
  } finally {
    await context.close();
  }
}
