import type {
  ApprovalAnswer,
  Approver,
  ElicitationRequest,
  ElicitationResponse,
  Elicitor,
  PolicyDecision,
} from "@pseudoclaude/core";
import { type TextSink, writeLine } from "./cli-io.js";
import { type FieldSchema, type FieldValue, fieldLabel, parseFieldValue } from "./elicit-fields.js";
import type { Prompter } from "./prompter.js";
import { compactArgs } from "./text-format.js";

/** How the person can be reached: `--yes`, a terminal to ask on, or nobody. */
export interface CallbackOptions {
  /** `--yes`: approve every `ask` without a question. */
  yes: boolean;
  /** stdin and stderr are terminals (or a test says so). */
  interactive: boolean;
  prompter: Prompter;
  stderr: TextSink;
}

const MAX_ATTEMPTS = 3;

/**
 * The approval callback for `ask` decisions. Returns `undefined` when nobody can answer, so
 * core denies the call with a message that points at `--yes`: a script must never hang on a
 * question no one will see.
 */
export function createApprover(options: CallbackOptions): Approver | undefined {
  const person = options.interactive ? askInTerminal(options) : undefined;
  if (options.yes)
    return (request) => {
      if (!askedByAdministrator(request.decision)) return "allow";
      // An administrator's ask rule wants a person's answer: `--yes` cannot give it.
      return (
        person?.(request) ?? {
          verdict: "deny",
          reason: `${request.decision.reason} Managed settings ask a person about this call, and --yes does not answer for them; run in an interactive terminal.`,
        }
      );
    };
  return person;
}

/** Whether the question comes from a managed `ask` rule. */
function askedByAdministrator(decision: PolicyDecision): boolean {
  return decision.matched.kind === "rule" && decision.matched.origin === "managed";
}

function askInTerminal(options: CallbackOptions): Approver {
  return async (request): Promise<ApprovalAnswer> => {
    writeLine(options.stderr, request.decision.reason);
    const answer = await options.prompter.ask(
      `Allow ${request.tool.name} ${compactArgs(request.call.arguments)}${request.call.parentId ? ` (a call of the program ${request.call.parentId})` : ""}? [y/N] `,
      request.signal,
    );
    return isYes(answer) ? "allow" : { verdict: "deny", reason: "declined at the prompt" };
  };
}

/**
 * The elicitation callback: in a terminal, ask for each field of the requested schema;
 * otherwise decline at once, so a server waiting for input is never left hanging.
 */
export function createElicitor(options: CallbackOptions): Elicitor {
  if (!options.interactive) return async () => ({ action: "decline" });
  return (request) => elicitInTerminal(request, options);
}

async function elicitInTerminal(
  request: ElicitationRequest,
  options: CallbackOptions,
): Promise<ElicitationResponse> {
  const { prompter, stderr } = options;
  const ask = (question: string) => prompter.ask(question, request.signal);
  if (request.mode === "url") {
    // We never open it ourselves: the person sees the whole address and decides.
    writeLine(stderr, `${request.source} asks you to open a page: ${request.message}`);
    writeLine(stderr, `  ${request.url}`);
    return {
      action: isYes(await ask("Open it (in your browser) and continue? [y/N] "))
        ? "accept"
        : "decline",
    };
  }
  writeLine(stderr, `${request.source} asks: ${request.message}`);
  if (!isYes(await ask("Answer? [y/N] "))) return { action: "decline" };
  const schema = request.requestedSchema as {
    properties?: Record<string, FieldSchema>;
    required?: string[];
  };
  const required = new Set(schema.required ?? []);
  const content: Record<string, FieldValue> = {};
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    const value = await askField(name, field, required.has(name), ask, stderr);
    if (value === "cancel") return { action: "cancel" };
    if (value !== undefined) content[name] = value;
  }
  return { action: "accept", content };
}

/** One field: empty takes the default or skips an optional field; bad input is asked again. */
async function askField(
  name: string,
  field: FieldSchema,
  required: boolean,
  ask: (question: string) => Promise<string>,
  stderr: TextSink,
): Promise<FieldValue | "cancel" | undefined> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const text = await ask(fieldLabel(name, field, required));
    if (text.trim() === "") {
      if (field.default !== undefined) return field.default as FieldValue;
      if (!required) return undefined;
      writeLine(stderr, `${name} is required.`);
      continue;
    }
    const parsed = parseFieldValue(field, text);
    if (parsed.ok) return parsed.value;
    writeLine(stderr, `${name}: ${parsed.message}`);
  }
  return "cancel";
}

export function isYes(answer: string): boolean {
  return /^y(es)?$/i.test(answer.trim());
}
