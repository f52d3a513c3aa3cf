import { randomUUID } from "node:crypto";
import type { AgentEvents, RunResult } from "@pseudoclaude/core";
import type { DurableClient, PendingApproval } from "@pseudoclaude/durable-restate/client";
import { EventEmitter } from "eventemitter3";
import { CliUsageError } from "../cli-errors.js";
import { type CliIo, isInteractive, writeJson, writeLine } from "../cli-io.js";
import type { CliFlag, CliFlags } from "../cli-options.js";
import { EXIT } from "../exit-codes.js";
import { errorToJson, runToJson } from "../json-output.js";
import { ReadlinePrompter } from "../prompter.js";
import { RunRenderer } from "../render-run.js";
import { RunRecorder } from "../run-recorder.js";
import { requireSessionId, sessionNotFound } from "../session-id-errors.js";
import { compactArgs } from "../text-format.js";
import { durableClient, ingressUrl, loadDurableClient, newestFirst } from "./durable-flags.js";
import { TerminalApprovals } from "./terminal-approvals.js";

/** Flags that shape the agent: a durable run's agent is the worker's (`pseudoclaude serve`). */
const WORKER_FLAGS: readonly CliFlag[] = [
  "provider",
  "model",
  "script",
  "mode",
  "tool-search",
  "code-mode",
  "yes",
  "output-schema",
  "trace",
  "plugin",
  "system-prompt",
  "append-system-prompt",
  "no-instructions",
];

/**
 * `pseudoclaude run --durable restate [--session ID] PROMPT`: submit the run through Restate's
 * ingress, stream its events as they are recorded (the same lines as a run in process), and
 * print its result. Ctrl-C detaches: the run goes on without us.
 */
export async function runDurable(
  flags: CliFlags,
  io: CliIo,
  prompt: string,
  maxTurns: number | undefined,
): Promise<number> {
  for (const flag of WORKER_FLAGS)
    if (flags[flag] !== undefined)
      throw new CliUsageError(
        "invalid_usage",
        `--${flag} shapes the agent, and a durable run's agent is its worker's: give it to "pseudoclaude serve".`,
        { details: { flag } },
      );
  const json = flags.json ?? false;
  const client = await durableClient(flags);
  let session: string | undefined;
  const events = new EventEmitter<AgentEvents>();
  const recorder = new RunRecorder(events);
  const renderer = json ? undefined : new RunRenderer(events, io);
  const fail = (error: unknown, invocationId?: string): number => {
    renderer?.finish();
    const failure = errorToJson(error);
    writeLine(io.stderr, `pseudoclaude run: ${failure.message}`);
    if (json)
      writeJson(
        io.stdout,
        runToJson({ ...recorder, stopReason: "error" }, [], session, {
          invocation_id: invocationId ?? null,
          error: failure,
        }),
      );
    return EXIT.failed;
  };

  try {
    session = (await chooseDurableSession(flags, client)) ?? randomUUID();
  } catch (error) {
    if (error instanceof CliUsageError) throw error;
    return fail(error);
  }
  if (!json && (flags.resume !== undefined || flags.continue))
    writeLine(io.stderr, `Continuing durable session ${session}.`);
  let invocationId: string;
  try {
    invocationId = await client.submit(session, {
      prompt,
      ...(maxTurns !== undefined ? { maxTurns } : {}),
    });
  } catch (error) {
    return fail(error);
  }
  if (!json)
    writeLine(
      io.stderr,
      `Durable run ${invocationId} of session ${session} (Restate at ${ingressUrl(flags)}).`,
    );
  // In a terminal the run's approvals are asked here too; a script is never asked.
  const approvals =
    renderer && isInteractive(io)
      ? new TerminalApprovals(client, new ReadlinePrompter(io), (line) => renderer.note(line))
      : undefined;
  const { followRunEvents } = await loadDurableClient();
  const follower = followRunEvents(client, session, invocationId, (event) => {
    if (event.type === "approval-waiting") {
      renderer?.note(waitingLine(event.data));
      approvals?.ask(event.data);
      return;
    }
    if (event.type === "tool-decision") approvals?.decided(event.data.call.id);
    (events.emit as (name: string, data: unknown) => boolean)(event.type, event.data);
  });
  let result: RunResult;
  try {
    result = await client.result(invocationId, io.signal);
  } catch (error) {
    approvals?.close();
    follower.stop();
    if (io.signal?.aborted) {
      renderer?.finish();
      writeLine(
        io.stderr,
        `Detached: run ${invocationId} goes on in Restate (session ${session}). Its result: GET ${ingressUrl(flags)}/restate/invocation/${invocationId}/attach`,
      );
      return EXIT.interrupted;
    }
    await follower.drain();
    return fail(error, invocationId);
  }
  approvals?.close();
  follower.stop();
  await follower.drain();
  renderer?.finish();
  if (json) {
    writeJson(io.stdout, runToJson(result, [], session, { invocation_id: invocationId }));
  } else {
    if (!follower.sawText && result.text !== "") io.stdout.write(`${result.text}\n`);
    if (result.stopReason === "max_turns")
      writeLine(io.stderr, `Stopped after ${result.turns} turns without a final answer.`);
    writeLine(
      io.stderr,
      `Session ${session}: continue with --durable restate --session ${session}.`,
    );
  }
  return result.stopReason === "end_turn" ? EXIT.ok : EXIT.failed;
}

/**
 * The session to run in: `--session ID` (new or not), `--resume ID` (must be there) or
 * `--continue` (the latest), read from the server's state like `sessions --durable restate`;
 * undefined for a new one.
 */
async function chooseDurableSession(
  flags: CliFlags,
  client: DurableClient,
): Promise<string | undefined> {
  const given = [
    flags.session !== undefined ? "--session" : "",
    flags.resume !== undefined ? "--resume" : "",
    flags.continue ? "--continue" : "",
  ].filter(Boolean);
  if (given.length > 1)
    throw new CliUsageError(
      "invalid_usage",
      `${given.join(" and ")} each pick a session; give one of them.`,
    );
  if (flags.session !== undefined) return requireSessionId(flags.session, { flag: "session" });
  if (flags.resume === undefined && !flags.continue) return undefined;
  const held =
    flags.resume !== undefined
      ? await client
          .session(requireSessionId(flags.resume, { flag: "resume" }))
          .then((one) => (one ? [one] : []))
      : await client.sessions();
  const [latest] = newestFirst(held);
  if (!latest)
    throw sessionNotFound(
      flags.resume !== undefined
        ? `No durable session "${flags.resume}" in the Restate server at ${client.admin} (pseudoclaude sessions --durable restate lists them).`
        : `No durable session to continue in the Restate server at ${client.admin}.`,
      flags.resume !== undefined ? { flag: "resume", value: flags.resume } : { flag: "continue" },
    );
  return latest.id;
}

function waitingLine(approval: PendingApproval): string {
  const maybe = approval.interrupted ? " (it may have run once already: its worker stopped)" : "";
  const program = approval.parentCallId ? ` (a call of the program ${approval.parentCallId})` : "";
  return `  waiting for approval of ${approval.tool} ${compactArgs(approval.arguments)}${program}${maybe}: pseudoclaude approve ${approval.id} allow|deny`;
}
