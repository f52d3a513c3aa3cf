import type { ApprovalAnswer, Approver, SessionRules } from "@pseudoclaude/core";
import { type TextSink, writeLine } from "../cli-io.js";
import type { Prompter } from "../prompter.js";
import { compactArgs } from "../text-format.js";

/**
 * The chat's answer to `ask`: `y` allows once, `a` allows for the rest of the session, `n`
 * denies, with an optional reason for the model. Anything else asks again; input that ended
 * denies. Without a person (stdin is not a terminal) there is no approver, so `ask` is denied
 * with a message that names `--yes`.
 */
export function chatApprover(
  prompter: Prompter,
  out: TextSink,
  rules: SessionRules,
  interactive: boolean,
  yes: boolean,
): Approver | undefined {
  if (yes) return () => "allow";
  if (!interactive) return undefined;
  return async (request): Promise<ApprovalAnswer> => {
    if (rules.matches(request)) return { verdict: "allow", reason: "allowed for this session" };
    writeLine(out, `  ${request.decision.reason}`);
    for (let attempt = 0; attempt < 3; attempt++) {
      const answer = (
        await prompter.ask(
          `  Allow ${request.tool.name} ${compactArgs(request.call.arguments, 120)}${request.call.parentId ? ` (a call of the program ${request.call.parentId})` : ""}? [y] once  [a] this session  [n] deny: `,
          request.signal,
        )
      )
        .trim()
        .toLowerCase();
      if (answer === "y" || answer === "yes") return "allow";
      if (answer === "a" || answer === "always") {
        writeLine(out, `  Allowed for this session: ${rules.add(request)}`);
        return { verdict: "allow", reason: "allowed for this session" };
      }
      if (answer === "n" || answer === "no" || answer === "") {
        const reason = (
          await prompter.ask("  Reason for the model (Enter for none): ", request.signal)
        ).trim();
        return { verdict: "deny", reason: reason || "declined at the prompt" };
      }
      writeLine(out, "  Answer y (allow once), a (allow for this session) or n (deny).");
    }
    return { verdict: "deny", reason: "no clear answer at the prompt" };
  };
}
