import type { PluginContext } from "@pseudoclaude/core/plugin";
import type { ServerLogEntry } from "../mcp-session.js";

/** Log messages kept from one server in an agent's life; a chatty server is cut off after. */
const MAX_MESSAGES = 200;
/** Characters of a message's data kept. */
const MAX_CHARS = 1_000;

const WARNING_LEVELS = new Set(["warning", "error", "critical", "alert", "emergency"]);

/**
 * A server's log messages (`notifications/message`) as diagnostics (stage `server_log`, code
 * `mcp_server_log`), which also reach `agent.on("diagnostic")`: level, logger and data, the
 * data cut to 1,000 characters and redacted like every diagnostic. `warning` and worse are
 * warnings, the rest info: the server's own errors are not the agent's, so `--strict` is not
 * failed by them. After 200 messages from one server the rest are counted, not kept.
 */
export function serverLogReporter(
  report: PluginContext["report"],
): (server: string, entry: ServerLogEntry) => void {
  const counts = new Map<string, number>();
  return (server, entry) => {
    const count = (counts.get(server) ?? 0) + 1;
    counts.set(server, count);
    if (count > MAX_MESSAGES) {
      if (count === MAX_MESSAGES + 1)
        report({
          stage: "server_log",
          severity: "info",
          code: "mcp_server_log_dropped",
          source: `mcp:${server}`,
          item: server,
          message: `Server "${server}" sent more than ${MAX_MESSAGES} log messages; the rest are not kept.`,
        });
      return;
    }
    const level = String(entry.level);
    const data = typeof entry.data === "string" ? entry.data : (JSON.stringify(entry.data) ?? "");
    const text = data.length > MAX_CHARS ? `${data.slice(0, MAX_CHARS)}… (cut)` : data;
    report({
      stage: "server_log",
      severity: WARNING_LEVELS.has(level) ? "warning" : "info",
      code: "mcp_server_log",
      source: `mcp:${server}`,
      item: entry.logger ? `${server}/${entry.logger}` : server,
      message: `[${level}]${entry.logger ? ` ${entry.logger}:` : ""} ${text}`,
      details: { level, ...(entry.logger ? { logger: entry.logger } : {}) },
    });
  };
}
