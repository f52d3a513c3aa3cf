import type { Provider } from "../contracts/provider.js";
import type { OutputFormat } from "../output/output-schema.js";
import type { ToolOffer } from "../tool-search/tool-offer.js";
import type { RunSpan } from "../tracing/agent-tracer.js";
import type { AgentRuntime } from "./agent-runtime.js";
import { runModelTurn } from "./model-turn.js";

/**
 * One model request of a run: the system prompt (as `beforeModelRequest` hooks leave it), the
 * conversation and the offered tools, streamed as text and reasoning events, under its span.
 */
export async function modelStep(
  rt: AgentRuntime,
  provider: Provider,
  offer: ToolOffer,
  turn: number,
  signal: AbortSignal,
  output: OutputFormat | undefined,
  run: RunSpan,
) {
  const tools = offer.sent;
  let system = rt.systemPrompt();
  if (rt.hooks.has("beforeModelRequest"))
    system =
      (await rt.hooks.beforeModelRequest({
        ...rt.hookScope(),
        signal,
        turn,
        system,
        messages: rt.conversation.messages,
        tools,
      })) ?? system;
  const messages = rt.conversation.messages;
  const span = rt.tracer.startModelRequest(run, provider, { system, messages, output, turn });
  try {
    const answer = await span.within(() =>
      runModelTurn(
        provider,
        {
          system,
          messages,
          tools,
          signal,
          ...(output ? { output } : {}),
          ...(offer.engine === "provider"
            ? { toolSearch: { deferred: offer.deferred, found: offer.found } }
            : {}),
        },
        turn,
        (text) => rt.emit("text-delta", { turn, text }),
        (text) => rt.emit("reasoning-delta", { turn, text }),
        (piece) => rt.emit("tool-input-delta", { turn, ...piece }),
      ),
    );
    span.end(answer);
    return answer;
  } catch (error) {
    span.fail(error);
    rt.emit("error", { stage: "model", error });
    throw error;
  }
}
