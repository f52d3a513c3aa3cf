import type { Agent } from "@pseudoclaude/core";
import { McpManager } from "@pseudoclaude/plugin-mcp";
import type { ChatOutput } from "./chat-output.js";

/** A prompt argument as a server lists it. */
interface PromptArgument {
  name: string;
  description?: string;
  required?: boolean;
}

/** A server's prompt as `/prompts` and Tab completion know it. */
interface ServerPrompt {
  server: string;
  name: string;
  description?: string;
  arguments: PromptArgument[];
}

/** How long Tab waits for a server's completions before it completes nothing. */
const COMPLETION_MS = 2_000;

/** Asks the person one line (the chat's input). */
type Ask = (question: string, signal: AbortSignal) => Promise<string>;

function managerOf(agent: Agent): McpManager | undefined {
  try {
    return agent.resolve<McpManager>(McpManager);
  } catch {
    return undefined;
  }
}

/** Every connected server's prompts (the first page of each). */
async function serverPrompts(manager: McpManager, signal: AbortSignal): Promise<ServerPrompt[]> {
  const listing = await manager.listPrompts(undefined, undefined, signal);
  return listing.servers.flatMap(({ server, prompts }) =>
    prompts.flatMap((prompt) => {
      if (typeof prompt.name !== "string") return [];
      const args = Array.isArray(prompt.arguments)
        ? (prompt.arguments as PromptArgument[]).filter((arg) => typeof arg?.name === "string")
        : [];
      return [
        {
          server,
          name: prompt.name,
          ...(typeof prompt.description === "string" ? { description: prompt.description } : {}),
          arguments: args,
        },
      ];
    }),
  );
}

/** `/prompts`: each server's prompts, one a line, with their arguments (`?` when optional). */
export async function listPromptsFromChat(
  agent: Agent,
  output: ChatOutput,
  signal: AbortSignal,
): Promise<void> {
  const manager = managerOf(agent);
  if (!manager) return output.command("prompts", "The MCP plugin is not loaded.");
  const prompts = await serverPrompts(manager, signal);
  if (prompts.length === 0)
    return output.command("prompts", "No connected MCP server offers prompts.");
  const lines = prompts.map((prompt) => {
    const args = prompt.arguments.map((arg) => `${arg.name}${arg.required ? "" : "?"}`);
    const about = prompt.description ? ` — ${prompt.description}` : "";
    return `${prompt.server} ${prompt.name}${args.length > 0 ? ` (${args.join(", ")})` : ""}${about}`;
  });
  output.command(
    "prompts",
    `${lines.join("\n")}\nUse one: /prompt SERVER NAME [arg=value …] (Tab completes).`,
  );
}

/**
 * `/prompt SERVER NAME [arg=value …]`: fills the prompt (asking for each required argument not
 * given) and returns its text, which the chat sends as the next message; undefined when there
 * is nothing to send (said why).
 */
export async function promptFromChat(
  agent: Agent,
  args: readonly string[],
  ask: Ask,
  output: ChatOutput,
  signal: AbortSignal,
): Promise<string | undefined> {
  const manager = managerOf(agent);
  if (!manager) {
    output.command("prompt", "The MCP plugin is not loaded.");
    return undefined;
  }
  const [server, name, ...pairs] = args;
  if (!server || !name) {
    output.command("prompt", "Usage: /prompt SERVER NAME [arg=value …] (/prompts lists them).");
    return undefined;
  }
  const prompt = (await serverPrompts(manager, signal)).find(
    (candidate) => candidate.server === server && candidate.name === name,
  );
  if (!prompt) {
    output.command("prompt", `No prompt "${name}" on server "${server}" (/prompts lists them).`);
    return undefined;
  }
  const values: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    if (at <= 0) {
      output.command("prompt", `"${pair}" is not arg=value.`);
      return undefined;
    }
    values[pair.slice(0, at)] = pair.slice(at + 1);
  }
  for (const arg of prompt.arguments)
    if (arg.required && values[arg.name] === undefined)
      values[arg.name] = await ask(
        `${arg.name}${arg.description ? ` (${arg.description})` : ""}: `,
        signal,
      );
  const filled = await manager.getPrompt(server, name, values, signal);
  return promptText(filled);
}

/** A prompt's messages as one message of the person's: its text parts, in order. */
function promptText(result: Record<string, unknown>): string {
  const messages = Array.isArray(result.messages) ? result.messages : [];
  const parts: string[] = [];
  for (const message of messages as Array<{ content?: unknown }>) {
    const blocks = Array.isArray(message.content) ? message.content : [message.content];
    for (const block of blocks as Array<{ type?: string; text?: unknown; resource?: unknown }>) {
      if (block?.type === "text" && typeof block.text === "string") parts.push(block.text);
      const resource = block?.resource as { text?: unknown } | undefined;
      if (block?.type === "resource" && typeof resource?.text === "string")
        parts.push(resource.text);
    }
  }
  return parts.join("\n\n");
}

/**
 * Tab completion of `/prompt`: server names, then the server's prompts, then `arg=` names,
 * then an argument's values as the server suggests them (`completion/complete`, with the
 * arguments already given as context). Anything else completes nothing.
 */
export function promptCompleter(
  agent: Agent,
): (line: string, callback: (error: null, result: [string[], string]) => void) => void {
  return (line, callback) => {
    void complete(agent, line).then(
      (result) => callback(null, result),
      () => callback(null, [[], line]),
    );
  };
}

async function complete(agent: Agent, line: string): Promise<[string[], string]> {
  const match = /^\/prompt\s+(.*)$/.exec(line);
  const manager = managerOf(agent);
  if (!match || !manager) return [[], line];
  const words = (match[1] ?? "").split(/\s+/);
  const current = words.pop() ?? "";
  const signal = AbortSignal.timeout(COMPLETION_MS);
  const prompts = await serverPrompts(manager, signal);
  const starting = (candidates: Iterable<string>) => [
    ...new Set([...candidates].filter((candidate) => candidate.startsWith(current))),
  ];
  if (words.length === 0)
    return [starting(prompts.map((prompt) => `${prompt.server} `)).sort(), current];
  const [server, name, ...given] = words;
  if (words.length === 1)
    return [
      starting(prompts.filter((p) => p.server === server).map((p) => `${p.name} `)).sort(),
      current,
    ];
  const prompt = prompts.find((p) => p.server === server && p.name === name);
  if (!prompt) return [[], current];
  const at = current.indexOf("=");
  if (at < 0) return [starting(prompt.arguments.map((arg) => `${arg.name}=`)), current];
  const argument = current.slice(0, at);
  const context: Record<string, string> = {};
  for (const pair of given) {
    const split = pair.indexOf("=");
    if (split > 0) context[pair.slice(0, split)] = pair.slice(split + 1);
  }
  const { values } = await manager.complete(
    prompt.server,
    {
      ref: { type: "ref/prompt", name: prompt.name },
      argument: { name: argument, value: current.slice(at + 1) },
      ...(Object.keys(context).length > 0 ? { context: { arguments: context } } : {}),
    },
    signal,
  );
  return [values.map((value) => `${argument}=${value}`), current];
}
