import { errorMessage } from "@pseudoclaude/core/plugin";
import { CliUsageError } from "../cli-errors.js";
import { writeJson, writeLine } from "../cli-io.js";
import type { CommandContext, CommandSpec } from "../command.js";
import { EXIT } from "../exit-codes.js";

/** Where Restate's ingress is when neither `--ingress` nor the environment says. */
export const DEFAULT_RESTATE_INGRESS = "http://127.0.0.1:8080";

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
  const ingress = (
    flags.ingress ??
    process.env.PSEUDOCLAUDE_RESTATE_INGRESS ??
    DEFAULT_RESTATE_INGRESS
  ).replace(/\/+$/, "");
  const answer = flags.reason !== undefined ? { verdict, reason: flags.reason } : verdict;
  let response: Response;
  try {
    response = await fetch(`${ingress}/restate/awakeables/${encodeURIComponent(id)}/resolve`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(answer),
    });
  } catch (error) {
    writeLine(io.stderr, `Cannot reach Restate's ingress at ${ingress}: ${errorMessage(error)}`);
    return EXIT.failed;
  }
  if (!response.ok) {
    const body = (await response.text()).slice(0, 300);
    writeLine(io.stderr, `Restate refused the answer to ${id} (${response.status}): ${body}`);
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
