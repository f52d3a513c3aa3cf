import type { Client } from "@modelcontextprotocol/client";
import type { McpServerConfig } from "../config/server-config.js";
import type { DialOptions } from "../mcp-session.js";
import { clientCapabilities } from "../session/era-handlers.js";
import { MODERN_PROTOCOL } from "../session/era-probe.js";
import type { Connection } from "../wire/connection.js";
import { TaskCalls } from "./task-calls.js";
import { taskInputCallbacks } from "./task-input.js";
import { loadedTasksLibrary } from "./tasks-library.js";

/** The Tasks extension's identifier (2026-07-28): a server that runs tools as tasks says so. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/**
 * Tool calls as tasks, on the official Tasks library over the v2 client. In 2025-11-25 (v1
 * tasks) its requests go through the client, and what a task asks for comes as the server's
 * own requests, answered by the session's handlers. In 2026-07-28 (the Tasks extension) its
 * task wire shapes (which the client refuses) are sent as the connection's own exchanges. What
 * a task asks for on its way (`input_required`: a form, sampling, roots) is answered by the
 * same handlers as every other request of the server, then sent back with `tasks/update`.
 */
export function clientTaskCalls(
  server: McpServerConfig,
  options: DialOptions,
  client: Client,
  connection: Connection,
  modern: boolean,
): TaskCalls {
  const { handlers } = options;
  const inputs = taskInputCallbacks(server, handlers);
  return new TaskCalls(
    server.name,
    () => {
      // Loaded with the first task call (the library is imported then, see TaskCalls).
      const { createSessionPortFromClient } = loadedTasksLibrary();
      const endpoint = `mcp:${server.name}`;
      if (!modern) return createSessionPortFromClient(client, endpoint);
      return createSessionPortFromClient(client, endpoint, {
        rawDispatch: (request, dispatch) =>
          connection.exchange(
            request as { method: string; params?: Record<string, unknown> },
            withinTimeout(dispatch?.signal, dispatch?.context?.requestTimeoutMs),
          ),
        v2RequestFraming: {
          protocolVersion: MODERN_PROTOCOL,
          clientInfo: options.clientInfo,
          clientCapabilities: clientCapabilities(server, handlers),
        },
      });
    },
    {
      // The library is loaded by the first task call, before any input request can come.
      onInputRequest: (request, context) =>
        loadedTasksLibrary().createApplicationInputHandler(inputs)(request, context),
    },
  );
}

/** The library's signal and its request timeout (the library's own setting) as one signal. */
function withinTimeout(
  signal: AbortSignal | undefined,
  timeoutMs: number | undefined,
): AbortSignal | undefined {
  if (timeoutMs === undefined) return signal;
  const timeout = AbortSignal.timeout(timeoutMs);
  return signal ? AbortSignal.any([signal, timeout]) : timeout;
}
