import type { Agent } from "@pseudoclaude/core";
import { McpManager } from "@pseudoclaude/plugin-mcp";
import { openBrowser } from "../open-browser.js";
import type { ChatOutput } from "./chat-output.js";

/**
 * `/login [server]`: the loopback OAuth login of `mcp login`, from inside the chat. The URL is
 * shown (and a browser opened where there is one); when the person comes back, the server is
 * connected again and its tools join this session. Without a name, the one server that needs a
 * login is meant; Ctrl-C (`signal`) gives up waiting.
 */
export async function loginFromChat(
  agent: Agent,
  args: readonly string[],
  output: ChatOutput,
  signal: AbortSignal,
): Promise<void> {
  let manager: McpManager;
  try {
    manager = agent.resolve<McpManager>(McpManager);
  } catch {
    output.command("login", "The MCP plugin is not loaded.");
    return;
  }
  const waiting = manager.servers().filter((server) => server.state === "needs-auth");
  const name = args[0] ?? (waiting.length === 1 ? waiting[0]?.name : undefined);
  if (!name) {
    output.command(
      "login",
      waiting.length === 0
        ? "No MCP server needs a login. /login SERVER logs in to an http or sse server anyway."
        : `Several servers need a login (${waiting.map((server) => server.name).join(", ")}): /login SERVER.`,
    );
    return;
  }
  const report = await manager.login(name, {
    signal,
    show: (url) => {
      output.note(`Open this URL in your browser to log in to ${name}:\n  ${url.href}`);
      openBrowser(url);
    },
  });
  const tools = agent.registry.definitions().filter((tool) => tool.source === `mcp:${name}`);
  output.command(
    "login",
    report.state === "ready"
      ? `Logged in to ${name}: ${tools.length} tool${tools.length === 1 ? "" : "s"} joined.`
      : `Logged in to ${name}, but it is ${report.state}${report.lastError ? `: ${report.lastError}` : ""}.`,
  );
}
