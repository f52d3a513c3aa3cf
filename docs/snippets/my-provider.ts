// The code of docs/write-a-provider.md: compiled by CI, so the guide cannot go stale.
// #region provider
import type { Provider } from "@pseudoclaude/core";
import type { ContentKind } from "@pseudoclaude/core/plugin";
import type { ProviderEvent, ProviderRequest } from "@pseudoclaude/core/provider";

export class MyProvider implements Provider {
  readonly name = "my-model"; // short id, shown in errors
  readonly model = "my-model-1";
  readonly toolResultContent: readonly ContentKind[] = ["text"]; // what it reads in tool results

  async *stream(_request: ProviderRequest): AsyncIterable<ProviderEvent> {
    // request.system, request.messages, request.tools, request.signal
    yield { type: "text-delta", text: "Hello" };
    yield {
      type: "tool-call",
      call: { id: "call_1", name: "get_forecast", arguments: { city: "Lisbon" } },
    };
    yield { type: "usage", usage: { inputTokens: 12, outputTokens: 5 } };
    yield { type: "stop", reason: "tool_use" };
  }
}
// #endregion
