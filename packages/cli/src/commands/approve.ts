import { CliUsageError } from "../cli-errors.js";
import { writeJson, writeLine } from "../cli-io.js";
import type { CommandContext, CommandSpec } from "../command.js";
import { DEFAULT_RESTATE_INGRESS, durableClient } from "../durable/durable-flags.js";
import { EXIT } from "../exit-codes.js";

/**
 * `pseudoclaude approve ID allow|deny`: answer an approval a durable run waits for, from any
 * machine that reaches Restate's ingress. The ID is the one the run's `pending` handler lists.
 */
export const approveCommand: CommandSpec = {
  name: "approve",
  summary: "Answer an approval a durable run waits for (Restate): allow or deny.",
  usage: `Usage: pseudoclaude approve ID allow|deny [--reason TEXT] [--ingress URL] [--json]

A durable run (docs/durable-runs.md) that needs a person's approval waits without holding a
worker; its session's pending handler lists what it waits for, each with an ID. This answers
one, from anywhere that reaches Restate's ingress.

  --reason TEXT   why (a deny's reason reaches the model)
  --ingress URL   Restate's ingress (default: $PSEUDOCLAUDE_RESTATE_INGRESS, else ${DEFAULT_RESTATE_INGRESS})
  --json          {"id", "verdict", "reason"?}`,
  flags: ["reason", "ingress"],
  positionals: { min: 2, max: 2, names: "ID allow|deny" },
  run: runApprove,
};

async function runApprove({ flags, args, io }: CommandContext): Promise<number> {
  const [id = "", verdict = ""] = args;
  if (verdict !== "allow" && verdict !== "deny")
    throw new CliUsageError(
      "unexpected_argument",
      `"approve" takes allow or deny after the ID (got "${verdict}").`,
    );
  const client = await durableClient(flags);
  try {
    await client.answer(id, verdict, flags.reason);
  } catch (error) {
    const { status, message } = error as { status?: number; message: string };
    writeLine(
      io.stderr,
      status === undefined
        ? message
        : `Restate refused the answer to ${id} (${status}): ${message}`,
    );
    return EXIT.failed;
  }
  if (flags.json)
    writeJson(io.stdout, {
      id,
      verdict,
      ...(flags.reason !== undefined ? { reason: flags.reason } : {}),
    });
  else writeLine(io.stdout, `Approval ${id}: ${verdict === "allow" ? "allowed" : "denied"}.`);
  return EXIT.ok;
}
