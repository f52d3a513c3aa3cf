import { specTypeSchemas } from "@modelcontextprotocol/client";
import type {
  ApplicationCreateMessageResult,
  ApplicationInputCallbacks,
  ApplicationSamplingContentBlock,
} from "@modelcontextprotocol/ext-tasks/client";
import type { McpServerConfig } from "../config/server-config.js";
import type { ClientHandlers, SamplingResponse } from "../mcp-session.js";
import { checkedAs } from "../session/client-options.js";
import { answerElicitation, answerSampling } from "../session/era-handlers.js";
import { jsonObject } from "./json-value.js";

/**
 * What a task asks for on its way (a form, sampling, roots), answered by the same handlers as
 * every other request of the server. What the server sent is checked against the revision's
 * schema first, as the client checks its own requests: a task's input request is the server's
 * word, and a malformed one is refused with what is wrong.
 */
export function taskInputCallbacks(
  server: McpServerConfig,
  handlers: ClientHandlers,
): ApplicationInputCallbacks {
  return {
    elicitation: async (request, context) =>
      answerElicitation(
        checkedAs(
          specTypeSchemas.ElicitRequestParams,
          request.params,
          "The server's elicitation request of a task",
        ),
        server,
        handlers,
        context.signal ?? new AbortController().signal,
      ),
    sampling: async (request, context) => {
      const answer = await answerSampling(
        checkedAs(
          specTypeSchemas.CreateMessageRequestParams,
          request.params,
          "The server's sampling request of a task",
        ),
        server,
        handlers,
        context.signal ?? new AbortController().signal,
      );
      if (!answer) throw new Error(`Sampling is not enabled for server "${server.name}".`);
      return samplingResult(answer);
    },
    roots: async () => ({ roots: handlers.roots() }),
  };
}

/** The model's answer in the library's shape: text, or its tool calls with JSON arguments. */
function samplingResult(answer: SamplingResponse): ApplicationCreateMessageResult {
  const content: ApplicationSamplingContentBlock | ApplicationSamplingContentBlock[] =
    Array.isArray(answer.content)
      ? answer.content.map((block) => ({
          type: "tool_use" as const,
          id: block.id,
          name: block.name,
          input: jsonObject(block.input),
        }))
      : { type: "text" as const, text: answer.content.text };
  return {
    role: answer.role,
    model: answer.model,
    content,
    ...(answer.stopReason ? { stopReason: answer.stopReason } : {}),
  };
}
