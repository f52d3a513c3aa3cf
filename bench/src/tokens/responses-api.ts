import type { ServerResponse } from "node:http";
import {
  contentText,
  type Item,
  type ModelRequest,
  sortTools,
  type WireTool,
} from "./model-request.js";
import type { Reply } from "./reply.js";

type Body = Record<string, unknown>;

/**
 * What earlier responses produced, by id: a Responses client may send `item_reference` items or
 * a `previous_response_id` instead of the items themselves, and the model reads them all the
 * same (as the real API bills them).
 */
export class ResponsesStore {
  readonly items = new Map<string, Body>();
  /** Each response's whole input and output, for `previous_response_id`. */
  readonly conversations = new Map<string, Body[]>();

  clear(): void {
    this.items.clear();
    this.conversations.clear();
  }
}

/** The request's input items, with a previous response's conversation and references resolved. */
function inputItems(body: Body, store: ResponsesStore): Body[] {
  const given: Body[] =
    typeof body.input === "string"
      ? [{ role: "user", content: body.input }]
      : ((body.input ?? []) as Body[]);
  const previous =
    typeof body.previous_response_id === "string"
      ? (store.conversations.get(body.previous_response_id) ?? [])
      : [];
  return [...previous, ...given].map((item) =>
    item.type === "item_reference" ? (store.items.get(String(item.id)) ?? item) : item,
  );
}

/** A Responses request body read as the scripted model reads any request. */
export function readResponsesRequest(body: Body, store: ResponsesStore): ModelRequest {
  const raw = inputItems(body, store);
  const items: Item[] = [];
  if (typeof body.instructions === "string" && body.instructions.length > 0)
    items.push({ kind: "text", role: "system", text: body.instructions });
  const loaded: WireTool[] = [];
  for (const item of raw) {
    const type = item.type ?? "message";
    if (type === "message") {
      const role = String(item.role);
      const kind =
        role === "system" || role === "developer"
          ? "system"
          : role === "user"
            ? "user"
            : "assistant";
      items.push({ kind: "text", role: kind, text: contentText(item.content) });
    } else if (type === "function_call") {
      items.push({
        kind: "call",
        id: String(item.call_id),
        name: String(item.name),
        ...(typeof item.namespace === "string" ? { namespace: item.namespace } : {}),
        arguments: String(item.arguments ?? ""),
      });
    } else if (type === "function_call_output") {
      items.push({ kind: "result", id: String(item.call_id), text: contentText(item.output) });
    } else if (type === "tool_search_call") {
      items.push({
        kind: "search-call",
        id: String(item.call_id ?? item.id),
        arguments: item.arguments,
      });
    } else if (type === "tool_search_output") {
      const tools = (item.tools ?? []) as WireTool[];
      loaded.push(...tools);
      items.push({ kind: "search-output", id: String(item.call_id ?? item.id), tools });
    } else {
      items.push({ kind: "other", value: item });
    }
  }
  const tools = (body.tools ?? []) as WireTool[];
  return {
    api: "responses",
    stream: body.stream === true,
    items,
    tools,
    ...sortTools(tools, loaded),
  };
}

/** The reply's output items, as the real API shapes them. */
function outputItems(reply: Reply, n: number): Body[] {
  const output: Body[] = [];
  if (reply.toolSearch) {
    const search = reply.toolSearch;
    output.push({
      type: "tool_search_call",
      id: `tsc_bench${n}`,
      call_id: search.execution === "client" ? search.id : null,
      execution: search.execution,
      arguments: search.arguments,
      status: "completed",
    });
    if (search.execution === "server")
      output.push({
        type: "tool_search_output",
        id: `tso_bench${n}`,
        call_id: null,
        execution: "server",
        status: "completed",
        tools: search.loaded ?? [],
      });
  }
  if (reply.text)
    output.push({
      type: "message",
      id: `msg_bench${n}`,
      status: "completed",
      role: "assistant",
      content: [{ type: "output_text", text: reply.text, annotations: [], logprobs: [] }],
    });
  for (const [i, call] of reply.calls.entries())
    output.push({
      type: "function_call",
      id: `fc_bench${n}_${i}`,
      call_id: call.id,
      name: call.name,
      ...(call.namespace ? { namespace: call.namespace } : {}),
      arguments: call.arguments,
      status: "completed",
    });
  return output;
}

/** The reply as a Responses answer: one Response object, or its SSE events like the real API. */
export function writeResponsesReply(
  body: Body,
  reply: Reply,
  response: ServerResponse,
  n: number,
  store: ResponsesStore,
): void {
  const output = outputItems(reply, n);
  const id = `resp_bench${n}`;
  for (const item of output) store.items.set(String(item.id), item);
  store.conversations.set(id, [...inputItems(body, store), ...output]);
  const base = {
    id,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    model: String(body.model ?? "bench"),
    instructions: body.instructions ?? null,
    tools: body.tools ?? [],
    tool_choice: body.tool_choice ?? "auto",
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: body.previous_response_id ?? null,
    error: null,
    incomplete_details: null,
    metadata: {},
    temperature: null,
    top_p: null,
    text: { format: { type: "text" } },
    truncation: "disabled",
  };
  const done = {
    ...base,
    status: "completed",
    output,
    usage: {
      input_tokens: reply.usage.input,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: reply.usage.output,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: reply.usage.input + reply.usage.output,
    },
  };
  if (body.stream !== true) {
    response.writeHead(200, { "Content-Type": "application/json" });
    response.end(JSON.stringify(done));
    return;
  }
  response.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
  let sequence = 0;
  const event = (type: string, fields: Body) =>
    response.write(
      `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...fields })}\n\n`,
    );
  const pending = { ...base, status: "in_progress", output: [], usage: null };
  event("response.created", { response: pending });
  event("response.in_progress", { response: pending });
  output.forEach((item, index) => {
    const itemId = String(item.id);
    if (item.type === "message") {
      const text = reply.text ?? "";
      event("response.output_item.added", {
        output_index: index,
        item: { ...item, status: "in_progress", content: [] },
      });
      const part = { type: "output_text", text: "", annotations: [], logprobs: [] };
      event("response.content_part.added", {
        item_id: itemId,
        output_index: index,
        content_index: 0,
        part,
      });
      event("response.output_text.delta", {
        item_id: itemId,
        output_index: index,
        content_index: 0,
        delta: text,
        logprobs: [],
      });
      event("response.output_text.done", {
        item_id: itemId,
        output_index: index,
        content_index: 0,
        text,
        logprobs: [],
      });
      event("response.content_part.done", {
        item_id: itemId,
        output_index: index,
        content_index: 0,
        part: { ...part, text },
      });
    } else if (item.type === "function_call") {
      event("response.output_item.added", {
        output_index: index,
        item: { ...item, status: "in_progress", arguments: "" },
      });
      event("response.function_call_arguments.delta", {
        item_id: itemId,
        output_index: index,
        delta: item.arguments,
      });
      event("response.function_call_arguments.done", {
        item_id: itemId,
        output_index: index,
        arguments: item.arguments,
      });
    } else {
      event("response.output_item.added", {
        output_index: index,
        item: { ...item, status: "in_progress" },
      });
    }
    event("response.output_item.done", { output_index: index, item });
  });
  event("response.completed", { response: done });
  response.end();
}
