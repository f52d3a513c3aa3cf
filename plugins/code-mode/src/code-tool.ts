import { randomInt } from "node:crypto";
import {
  type Tool,
  type ToolDefinition,
  type ToolResult,
  toolFailure,
  toolSuccess,
} from "@pseudoclaude/core";
import { CODE_TOOL_NAME } from "./code-tool-description.js";
import { declaredOutputSchema, toolNamespaces } from "./declarations/index.js";
import { toCallAnswer } from "./program-answers.js";
import {
  type ProgramErrorCode,
  type ProgramOutcome,
  runProgram,
  type SandboxLimits,
} from "./sandbox/index.js";

/** The source id of the code tool. */
export const CODE_MODE_SOURCE = "code-mode";

const INPUT_SCHEMA = {
  type: "object",
  properties: {
    code: {
      type: "string",
      description:
        "The program: the body of an async function that calls tools and ends with `return <value>`.",
    },
  },
  required: ["code"],
  additionalProperties: false,
} as const;

/**
 * A person deciding about an inner call can take minutes; the program's own wall clock leaves
 * that time out, and this bound only keeps a forgotten run from holding the call for ever.
 */
const CALL_TIMEOUT_MS = 60 * 60 * 1000;

/**
 * The code tool with `description` (which carries the tools' declarations) and these limits;
 * `describe` gives its description for the tools a request sends with it.
 */
export function codeTool(
  description: string,
  limits: SandboxLimits,
  describe: (declared: readonly ToolDefinition[]) => string,
): Tool {
  let lastSent: readonly ToolDefinition[] | undefined;
  let lastDefinition: ToolDefinition | undefined;
  const definition: ToolDefinition = {
    name: CODE_TOOL_NAME,
    description,
    inputSchema: INPUT_SCHEMA,
    // The program itself reaches nothing: each call it makes is decided on its own, so plan
    // mode runs it and refuses its side-effect calls one by one.
    safety: "read_only",
    source: CODE_MODE_SOURCE,
    innerCalls: true,
    timeoutMs: CALL_TIMEOUT_MS,
  };
  return {
    definition,
    offeredDefinition(sent) {
      // Asked once per change of the offer; the same offer gets the same definition.
      if (sent !== lastSent || !lastDefinition) {
        lastSent = sent;
        lastDefinition = { ...definition, description: describe(sent) };
      }
      return lastDefinition;
    },
    validate(args) {
      return typeof args.code === "string" && args.code.trim() !== ""
        ? { ok: true }
        : { ok: false, message: "code: a non-empty program is required" };
    },
    async execute(args, context): Promise<ToolResult> {
      const inner = context.inner;
      if (!inner)
        return toolFailure(
          "tool_error",
          "code_mode runs only inside an agent, whose policy decides each call the program makes.",
        );
      // Recorded once: a replay of a durable run starts from the same time and the same seed.
      const start = await inner.once("start", () => ({
        nowMs: Date.now(),
        seed: [randomInt(2 ** 32), randomInt(2 ** 32), randomInt(2 ** 32), randomInt(2 ** 32)] as [
          number,
          number,
          number,
          number,
        ],
      }));
      const reachable = inner.tools();
      const names = reachable.map((tool) => tool.name);
      const typed = new Set(
        reachable
          .filter((tool) => declaredOutputSchema(tool) !== undefined)
          .map((tool) => tool.name),
      );
      const clock = { ms: start.nowMs };
      const outcome = await runProgram({
        source: String(args.code),
        tools: names,
        namespaces: toolNamespaces(names),
        host: {
          call: async (index, name, callArgs, signal) =>
            toCallAnswer(
              await inner.call(index, name, callArgs as Record<string, unknown>, { signal }),
              clock,
              typed.has(name),
            ),
          pausedMs: () => inner.approvalWaitMs(),
        },
        start,
        limits,
        signal: context.signal,
      });
      return programResult(outcome);
    },
  };
}

/** The kernel's failure code for each way a program can end badly. */
const FAILURE_CODES: Readonly<Record<ProgramErrorCode, string>> = {
  SYNTAX: "program_error",
  THROWN: "program_error",
  STALLED: "program_error",
  TIMEOUT: "timeout",
  CPU_LIMIT: "program_limit",
  MEMORY_LIMIT: "program_limit",
  STACK_OVERFLOW: "program_limit",
  CALL_LIMIT: "program_limit",
  OUTPUT_LIMIT: "program_limit",
  ABORTED: "cancelled",
  INTERNAL: "internal_error",
};

/** What the model reads of a program: its value (or why it stopped), then its console output. */
export function programResult(outcome: ProgramOutcome): ToolResult {
  const tail = [
    ...(outcome.logs ? [`console:\n${outcome.logs.trimEnd()}`] : []),
    ...(outcome.warnings.length > 0
      ? [`warnings:\n${outcome.warnings.map((warning) => `- ${warning}`).join("\n")}`]
      : []),
  ];
  if (!outcome.ok) {
    // The sandbox's message already says where (`… (line 3)`).
    const text = [`${outcome.code}: ${outcome.message}`, ...tail].join("\n\n");
    const result = toolFailure(FAILURE_CODES[outcome.code], text);
    result.metadata.calls = outcome.calls;
    return result;
  }
  const value =
    typeof outcome.value === "string" ? outcome.value : JSON.stringify(outcome.value ?? null);
  const result = toolSuccess([value, ...tail].join("\n\n"));
  result.structured = outcome.value ?? null;
  result.metadata.calls = outcome.calls;
  return result;
}
