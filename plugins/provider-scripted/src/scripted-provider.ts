import { readFileSync } from "node:fs";
import { setTimeout as delay } from "node:timers/promises";
import { ConfigError, ModelError, type Provider, type ToolDefinition } from "@pseudoclaude/core";
import { type ContentKind } from "@pseudoclaude/core/plugin";
import {
  type Message,
  type OutputFormat,
  type ProviderEvent,
  type ProviderRequest,
} from "@pseudoclaude/core/provider";
import { z } from "zod";

/** Codes of the scripted provider's configuration errors: a script file it cannot use. */
export type ScriptErrorCode = "script_unreadable" | "script_invalid";
/** Codes of the model errors a script plays: no turn left, or a turn scripted to fail. */
export type ScriptedModelErrorCode =
  | "script_exhausted"
  | "scripted_error"
  | "scripted_expectation_failed";

// A script's codes join the kernel's, so `ModelError.is(error)` and `ConfigError.is(error)` type
// `code` with them too in any program that imports this package.
declare module "@pseudoclaude/core" {
  interface ConfigErrorCodes extends Record<ScriptErrorCode, true> {}
  interface ModelErrorCodes extends Record<ScriptedModelErrorCode, true> {}
}

/**
 * What a turn expects the model to have been given, checked before it plays: the turn fails
 * with `scripted_expectation_failed` when the system prompt lacks a text or a tool is not
 * offered, so an end-to-end script proves what the model saw.
 */
export interface ScriptedExpectation {
  system_includes?: string[];
  tools?: string[];
  /** Texts some message of the conversation sent must contain (a resumed session's). */
  messages_include?: string[];
}

/** One tool call of a turn. */
export interface ScriptedCall {
  id?: string;
  name: string;
  arguments?: unknown;
  /**
   * Stream the arguments' JSON text before the call, as a model writes it: in pieces of
   * `piece_chars` characters (default 4), `delay_ms` apart (default 0), so a display of
   * the call's input as it streams (an MCP App's partial input) can be seen.
   */
  stream_arguments?: { piece_chars?: number; delay_ms?: number };
}

/** One model turn: text and/or tool calls, as in the script file format. */
export interface ScriptedTurn {
  text?: string | undefined;
  /**
   * A structured final answer: any JSON value, written as its JSON text (what a model asked
   * for an output schema answers). The kernel validates it like a real model's.
   */
  output?: unknown;
  tool_calls?: Array<ScriptedCall> | undefined;
  /** Make this turn fail like a provider error. */
  error?: string | undefined;
  /** The tokens this turn reports (default 0 and 0). */
  usage?: { input_tokens?: number; output_tokens?: number } | undefined;
  expect?: ScriptedExpectation | undefined;
}

/** A turn computed from the request, for tests that react to tool results. */
export type ScriptedStep = ScriptedTurn | ((request: RecordedRequest) => ScriptedTurn);

/** What the provider was asked, kept so tests can assert what the model was offered. */
export interface RecordedRequest {
  system: string;
  messages: Message[];
  tools: ToolDefinition[];
  toolNames: string[];
  /** The output format the run asked for, if any. */
  output?: OutputFormat;
  /** The tool choice asked for, if any (`required`: a call must come). */
  toolChoice?: "auto" | "required";
  /** The model the request was made to (`withModel` gives another). */
  model: string;
  /** Deferred tools the request carried for a provider's own search (see `nativeToolSearch`). */
  deferredNames?: string[];
}

const scriptSchema = z.array(
  z
    .object({
      text: z.string().optional(),
      output: z.unknown().optional(),
      tool_calls: z
        .array(
          z
            .object({
              id: z.string().optional(),
              name: z.string().min(1),
              arguments: z.unknown().optional(),
              stream_arguments: z
                .object({
                  piece_chars: z.number().int().min(1).optional(),
                  delay_ms: z.number().int().min(0).max(60_000).optional(),
                })
                .strict()
                .optional(),
            })
            .strict(),
        )
        .optional(),
      error: z.string().optional(),
      usage: z
        .object({
          input_tokens: z.number().int().min(0).optional(),
          output_tokens: z.number().int().min(0).optional(),
        })
        .strict()
        .optional(),
      expect: z
        .object({
          system_includes: z.array(z.string()).optional(),
          tools: z.array(z.string()).optional(),
          messages_include: z.array(z.string()).optional(),
        })
        .strict()
        .optional(),
    })
    .strict()
    .refine(
      (turn) =>
        turn.text !== undefined ||
        turn.output !== undefined ||
        turn.tool_calls !== undefined ||
        turn.error !== undefined,
      {
        message: 'a turn needs "text", "output", "tool_calls" or "error"',
      },
    ),
);

/**
 * A provider that plays a list of model turns and records every request. Used for tests and
 * offline demos (`pseudoclaude run --provider scripted --script FILE`).
 */
export class ScriptedProvider implements Provider {
  readonly name = "scripted";
  /** `script` unless given (or chosen with `withModel`). */
  readonly model: string;
  readonly requests: RecordedRequest[];
  /** Content kinds the pretend model reads in tool results (default: all). */
  readonly toolResultContent?: readonly ContentKind[];
  /** The pretend model's context window, to test compaction. Default: none. */
  readonly contextWindow?: number;
  readonly maxTools?: number;
  /** Shared with the providers `withModel` made: one script, played in order by all. */
  private readonly tape: { next: number };

  constructor(
    private readonly steps: readonly ScriptedStep[],
    private readonly options: {
      toolResultContent?: readonly ContentKind[];
      contextWindow?: number;
      model?: string;
      /** Refuse a request with more tools than this, as OpenAI refuses more than 128. */
      maxTools?: number;
    } = {},
    shared?: { tape: { next: number }; requests: RecordedRequest[] },
  ) {
    this.model = options.model ?? "script";
    this.tape = shared?.tape ?? { next: 0 };
    this.requests = shared?.requests ?? [];
    if (options.toolResultContent) this.toolResultContent = options.toolResultContent;
    if (options.contextWindow !== undefined) this.contextWindow = options.contextWindow;
    if (options.maxTools !== undefined) this.maxTools = options.maxTools;
  }

  /** The same script (and request log) under another model name, as a sub-agent would ask. */
  withModel(model: string): ScriptedProvider {
    return new ScriptedProvider(
      this.steps,
      { ...this.options, model },
      { tape: this.tape, requests: this.requests },
    );
  }

  /** Load `[{"text": "..."}, {"tool_calls": [{"name": "...", "arguments": {...}}]}, ...]`. */
  static fromFile(file: string): ScriptedProvider {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, "utf8"));
    } catch (error) {
      throw new ConfigError<ScriptErrorCode>(
        "script_unreadable",
        `Cannot read script ${file}: ${(error as Error).message}`,
        {
          details: { file },
        },
      );
    }
    return new ScriptedProvider(ScriptedProvider.parse(raw, file));
  }

  /** Validate a script value; errors name the turn index and field. */
  static parse(raw: unknown, where = "script"): ScriptedTurn[] {
    const parsed = scriptSchema.safeParse(raw);
    if (!parsed.success) {
      const issues = parsed.error.issues
        .map((issue) => `[${issue.path.join(".")}] ${issue.message}`)
        .join("; ");
      throw new ConfigError<ScriptErrorCode>(
        "script_invalid",
        `Invalid script ${where}: ${issues}`,
        {
          details: { file: where },
        },
      );
    }
    return parsed.data as ScriptedTurn[];
  }

  /** How many turns have been played. */
  get played(): number {
    return this.tape.next;
  }

  async *stream(request: ProviderRequest): AsyncIterable<ProviderEvent> {
    const recorded: RecordedRequest = {
      system: request.system,
      messages: structuredClone([...request.messages]) as Message[],
      tools: [...request.tools],
      toolNames: request.tools.map((tool) => tool.name),
      ...(request.output ? { output: structuredClone(request.output) } : {}),
      ...(request.toolChoice ? { toolChoice: request.toolChoice } : {}),
      model: this.model,
      ...(request.toolSearch
        ? { deferredNames: request.toolSearch.deferred.map((tool) => tool.name) }
        : {}),
    };
    this.requests.push(recorded);
    if (this.maxTools !== undefined && request.tools.length > this.maxTools)
      throw new ModelError<ScriptedModelErrorCode>(
        "scripted_error",
        `400 Invalid 'tools': array too long. Expected an array with maximum length ${this.maxTools}, but got an array with length ${request.tools.length} instead.`,
      );
    const step = this.steps[this.tape.next];
    if (step === undefined) {
      throw new ModelError<ScriptedModelErrorCode>(
        "script_exhausted",
        `The script has no turn ${this.tape.next + 1} (it has ${this.steps.length}); the model was asked once more than scripted.`,
      );
    }
    this.tape.next += 1;
    const turn = typeof step === "function" ? step(recorded) : step;
    const unmet = unmetExpectation(turn.expect, recorded);
    if (unmet)
      throw new ModelError<ScriptedModelErrorCode>(
        "scripted_expectation_failed",
        `Scripted turn ${this.tape.next} expected ${unmet}.`,
      );
    if (turn.error) throw new ModelError<ScriptedModelErrorCode>("scripted_error", turn.error);
    const text = turn.output !== undefined ? JSON.stringify(turn.output) : turn.text;
    if (text) {
      // Stream in word-sized pieces, like a real model, so consumers handle deltas.
      for (const piece of text.match(/\S+\s*|\s+/g) ?? []) {
        if (request.signal?.aborted) return;
        yield { type: "text-delta", text: piece };
      }
    }
    const calls = turn.tool_calls ?? [];
    for (const [index, call] of calls.entries()) {
      const id = call.id ?? `scripted_${this.tape.next}_${index + 1}`;
      const args = call.arguments ?? {};
      if (call.stream_arguments) {
        const { piece_chars = 4, delay_ms = 0 } = call.stream_arguments;
        const json = JSON.stringify(args);
        for (let at = 0; at < json.length; at += piece_chars) {
          if (request.signal?.aborted) return;
          const delta = json.slice(at, at + piece_chars);
          yield { type: "tool-input-delta", id, name: call.name, delta };
          // A cancelled request stops waiting; the next piece sees the abort and ends.
          if (delay_ms > 0)
            await delay(delay_ms, undefined, { signal: request.signal }).catch(() => {});
        }
      }
      yield { type: "tool-call", call: { id, name: call.name, arguments: args } };
    }
    yield {
      type: "usage",
      usage: {
        inputTokens: turn.usage?.input_tokens ?? 0,
        outputTokens: turn.usage?.output_tokens ?? 0,
      },
    };
    yield { type: "stop", reason: calls.length > 0 ? "tool_use" : "end_turn" };
  }
}

function unmetExpectation(
  expect: ScriptedExpectation | undefined,
  request: RecordedRequest,
): string | undefined {
  for (const text of expect?.system_includes ?? []) {
    if (!request.system.includes(text))
      return `the system prompt to include ${JSON.stringify(text)}; it did not`;
  }
  const sent = JSON.stringify(request.messages);
  for (const text of expect?.messages_include ?? []) {
    if (!sent.includes(JSON.stringify(text).slice(1, -1)))
      return `the conversation to include ${JSON.stringify(text)}; it did not (${request.messages.length} messages)`;
  }
  const missing = (expect?.tools ?? []).filter((name) => !request.toolNames.includes(name));
  if (missing.length > 0)
    return `the tools ${missing.join(", ")} to be offered; offered were ${request.toolNames.join(", ") || "none"}`;
  return undefined;
}
