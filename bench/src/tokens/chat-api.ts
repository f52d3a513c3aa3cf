import type { ServerResponse } from "node:http";
import { contentText, type Item, type ModelRequest, type WireTool } from "./model-request.js";
import type { Reply } from "./reply.js";

type Body = Record<string, unknown>;

/** A Chat Completions request body read as the scripted model reads any request. */
export function readChatRequest(body: Body): ModelRequest {
  const items: Item[] = [];
  for (const message of (body.messages ?? []) as Body[]) {
    const role = String(message.role);
    if (role === "tool") {
      items.push({
        kind: "result",
        id: String(message.tool_call_id),
        text: contentText(message.content),
      });
      continue;
    }
    const text = contentText(message.content);
    const kind =
      role === "system" || role === "developer" ? "system" : role === "user" ? "user" : "assistant";
    if (text.length > 0 || !Array.isArray(message.tool_calls))
      items.push({ kind: "text", role: kind, text });
    for (const call of (message.tool_calls ?? []) as Body[]) {
      const fn = (call.function ?? {}) as Body;
      items.push({
        kind: "call",
        id: String(call.id),
        name: String(fn.name),
        arguments: String(fn.arguments ?? ""),
      });
    }
  }
  const tools: WireTool[] = ((body.tools ?? []) as Body[]).map((tool) =>
    tool.type === "function"
      ? { type: "function", ...(tool.function as Body) }
      : (tool as WireTool),
  );
  const callable = tools
    .filter((tool) => tool.type === "function" && typeof tool.name === "string")
    .map((tool) => ({
      name: tool.name as string,
      ...(typeof tool.description === "string" ? { description: tool.description } : {}),
      parameters: tool.parameters,
    }));
  return { api: "chat", stream: body.stream === true, items, tools, callable, deferred: [] };
}

/** The reply as a Chat Completions answer: one JSON object, or SSE chunks like the real API. */
export function writeChatReply(
  body: Body,
  reply: Reply,
  response: ServerResponse,
  n: number,
): void {
  const id = `chatcmpl-bench${n}`;
  const created = Math.floor(Date.now() / 1000);
  const model = String(body.model ?? "bench");
  const finish = reply.calls.length > 0 ? "tool_calls" : "stop";
  const usage = {
    prompt_tokens: reply.usage.input,
    completion_tokens: reply.usage.output,
    total_tokens: reply.usage.input + reply.usage.output,
  };
  const toolCalls = reply.calls.map((call) => ({
    id: call.id,
    type: "function",
    function: { name: call.name, arguments: call.arguments },
  }));
  if (body.stream !== true) {
    response.writeHead(200, { "Content-Type": "application/json" });
    response.end(
      JSON.stringify({
        id,
        object: "chat.completion",
        created,
        model,
        choices: [
          {
            index: 0,
            message: {
              role: "assistant",
              content: reply.text ?? null,
              ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
              refusal: null,
            },
            logprobs: null,
            finish_reason: finish,
          },
        ],
        usage,
      }),
    );
    return;
  }
  response.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
  const chunk = (choices: unknown[], extra: Body = {}) =>
    response.write(
      `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices, ...extra })}\n\n`,
    );
  const delta = (value: Body, finishReason: string | null = null) =>
    chunk([{ index: 0, delta: value, logprobs: null, finish_reason: finishReason }]);
  delta({ role: "assistant", content: "" });
  if (reply.text) delta({ content: reply.text });
  reply.calls.forEach((call, index) => {
    delta({
      tool_calls: [
        { index, id: call.id, type: "function", function: { name: call.name, arguments: "" } },
      ],
    });
    delta({ tool_calls: [{ index, function: { arguments: call.arguments } }] });
  });
  delta({}, finish);
  const options = body.stream_options as { include_usage?: boolean } | undefined;
  if (options?.include_usage) chunk([], { usage });
  response.end("data: [DONE]\n\n");
}
