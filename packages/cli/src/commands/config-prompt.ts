import { estimateRequestTokens } from "@pseudoclaude/core";
import { withCliAgent } from "../cli-agent.js";
import { writeJson, writeLine } from "../cli-io.js";
import type { CommandContext } from "../command.js";
import { EXIT } from "../exit-codes.js";

/**
 * `pseudoclaude config prompt`: the system prompt a run would send, built as `run` builds its
 * agent (the base, the environment, instruction files, the MCP servers' instructions, the
 * prompt flags), with its size in tokens estimated as a request's. The servers start so their
 * instructions are in it; no model is called.
 */
export async function runConfigPrompt({ flags, io }: CommandContext): Promise<number> {
  return withCliAgent(
    { flags, io, diagnoseConfig: true, systemPrompt: true },
    async ({ agent }) => {
      const text = agent.systemPrompt();
      const tokens = estimateRequestTokens({ system: text, messages: [], tools: [] });
      if (flags.json) writeJson(io.stdout, { system_prompt: text, tokens, chars: text.length });
      else {
        writeLine(io.stdout, text);
        writeLine(io.stdout, "");
        writeLine(io.stdout, `(~${tokens} tokens, ${text.length} characters)`);
      }
      return EXIT.ok;
    },
  );
}
