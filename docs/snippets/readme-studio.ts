// The example of @pseudoclaude/studio's README.md: compiled by CI, so the README npm shows cannot
// go stale.
import { createAgent } from "@pseudoclaude/core";
import { ApprovalDesk, SpanRecorder, startStudio } from "@pseudoclaude/studio";

const desk = new ApprovalDesk();
const spans = await SpanRecorder.start(); // needs @opentelemetry/sdk-trace-base
const agent = await createAgent({
  approve: desk.approver,
  elicit: desk.elicitor,
  tracing: { tracerProvider: spans.tracerProvider },
});
const studio = await startStudio({ agent, desk, spans });
console.log(studio.url); // http://127.0.0.1:PORT/?token=…
await studio.close();
await agent.close();
await spans.shutdown();
