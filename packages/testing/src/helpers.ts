import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Agent, AgentEvents } from "@pseudoclaude/core";

/** A temporary workspace with a fake home for the user config layer. */
export interface TempWorkspace {
  root: string;
  home: string;
  /** Write `.PseudoClaude/config.yaml` of a layer. */
  writeConfig(layer: "user" | "project", yaml: string): Promise<string>;
  write(relative: string, content: string): Promise<string>;
  cleanup(): Promise<void>;
}

export async function createTempWorkspace(prefix = "pseudoclaude-"): Promise<TempWorkspace> {
  const base = await mkdtemp(path.join(os.tmpdir(), prefix));
  const root = path.join(base, "workspace");
  const home = path.join(base, "home");
  await mkdir(root, { recursive: true });
  await mkdir(home, { recursive: true });
  const write = async (file: string, content: string) => {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
    return file;
  };
  return {
    root,
    home,
    writeConfig: (layer, yaml) =>
      write(path.join(layer === "user" ? home : root, ".PseudoClaude", "config.yaml"), yaml),
    write: (relative, content) => write(path.join(root, relative), content),
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
}

/** Record every agent event in order, as `[name, payload]`. */
export function recordEvents(agent: Pick<Agent, "on">): Array<[keyof AgentEvents, unknown]> {
  const events: Array<[keyof AgentEvents, unknown]> = [];
  // A record over every event name: adding an event to AgentEvents fails to compile here.
  const every: Record<keyof AgentEvents, true> = {
    "run-start": true,
    "turn-start": true,
    "text-delta": true,
    "reasoning-delta": true,
    "tool-input-delta": true,
    "tool-call-start": true,
    "tool-decision": true,
    "tool-run-start": true,
    "tool-run-end": true,
    "tool-progress": true,
    "tool-task": true,
    "tool-call-end": true,
    "tool-search": true,
    "turn-end": true,
    "output-repair": true,
    compaction: true,
    "run-end": true,
    error: true,
    diagnostic: true,
  };
  const names = Object.keys(every) as Array<keyof AgentEvents>;
  for (const name of names)
    agent.on(name, ((payload: unknown) => events.push([name, payload])) as never);
  return events;
}
