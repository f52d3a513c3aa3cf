// The echo servers' tools, one list for both eras (echo-server.ts on the 1.x SDK, 2025-11-25;
// echo-server-2026.ts on the v2 server package, 2026-07-28), so the two row sets differ in the
// protocol only: `echo` answers its `text`, `sleep` waits `ms`, and `filler` more tools with a
// small schema each, as real servers have.

/** A listed tool, in the shape both SDKs' `tools/list` results take. */
export interface EchoTool {
  name: string;
  description: string;
  inputSchema: {
    type: "object";
    properties: Record<string, Record<string, string | number>>;
    required: string[];
  };
  annotations?: { readOnlyHint: boolean };
}

/**
 * The tools an echo server lists: echo, sleep and `filler` filler tools. The fillers share one
 * schema, as generated tools do; with `distinct` each has its own (its parameter described with
 * its number), as hand-written tools have.
 */
export function echoTools(filler: number, distinct = false): EchoTool[] {
  return [
    {
      name: "echo",
      description: "Echoes its text.",
      inputSchema: {
        type: "object",
        properties: { text: { type: "string" } },
        required: ["text"],
      },
      annotations: { readOnlyHint: true },
    },
    {
      name: "sleep",
      description: "Waits ms milliseconds.",
      inputSchema: {
        type: "object",
        properties: { ms: { type: "number" } },
        required: ["ms"],
      },
      annotations: { readOnlyHint: true },
    },
    ...Array.from(
      { length: filler },
      (_, i): EchoTool => ({
        name: `filler_${i}`,
        description: `Filler tool number ${i}, doing nothing of interest.`,
        inputSchema: {
          type: "object",
          properties: {
            query: {
              type: "string",
              description: distinct ? `What to look for in set ${i}.` : "What to look for.",
            },
            limit: { type: "integer", minimum: 1 },
          },
          required: ["query"],
        },
      }),
    ),
  ];
}

/** A `tools/call` answer: `sleep` waits, everything else echoes its `text`. */
export async function answerCall(
  name: string,
  args: Record<string, unknown> | undefined,
): Promise<{ content: Array<{ type: "text"; text: string }> }> {
  if (name === "sleep") {
    await delay(Number(args?.ms ?? 0));
    return { content: [{ type: "text", text: "slept" }] };
  }
  return { content: [{ type: "text", text: String(args?.text ?? "") }] };
}

/** A promise that settles after `ms` (at once for 0: no timer on the call path). */
export function delay(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}
