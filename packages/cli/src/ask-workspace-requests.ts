import { consentWorkspaceKey, defaultConsentStore } from "@pseudoclaude/core/consent";
import { loadCliConfig } from "./cli-agent.js";
import type { CliIo, TextSink } from "./cli-io.js";
import type { CliFlags } from "./cli-options.js";
import { defaultPlugins } from "./default-plugins.js";
import { loadPluginModules } from "./load-plugins.js";
import type { Prompter } from "./prompter.js";
import { workspaceRequests } from "./workspace-requests.js";

/**
 * What the workspace's files ask for that the user has not approved (servers, hooks, agent
 * files, allow rules, a provider endpoint...): listed once, at start, each with what it would
 * do, and the answer remembered. Without a terminal nothing is asked and they stay off.
 */
export async function askForWorkspaceRequests(
  flags: CliFlags,
  io: CliIo,
  prompter: Prompter,
  out: TextSink,
  interactive: boolean,
): Promise<void> {
  if (!interactive) return;
  const { workspace, config } = await loadCliConfig(flags, io);
  const store = defaultConsentStore();
  const key = consentWorkspaceKey(workspace);
  const plugins = [
    // With --no-instructions no instruction file reads a home file: nothing to ask about.
    ...defaultPlugins(flags["no-instructions"] ? { instructions: { enabled: false } } : {}),
    ...(await loadPluginModules(flags.plugin ?? [], io.cwd)),
  ];
  const waiting = (await workspaceRequests(plugins, { config, workspace })).filter(
    (subject) => !store.isApproved(key, subject),
  );
  if (waiting.length === 0) return;
  out.write("This workspace's own files ask for more than your settings allow:\n");
  for (const subject of waiting) {
    // Servers and settings are known by their names; hooks, agents and skills say theirs.
    const named = subject.kind === "mcp_server" || subject.kind === "setting";
    out.write(`  ${named ? `${subject.name}: ` : ""}${subject.summary}\n`);
    for (const effect of subject.effects ?? []) out.write(`      ${effect}\n`);
  }
  const answer = (await prompter.ask("Approve them for this workspace? [y/N] "))
    .trim()
    .toLowerCase();
  if (answer === "y" || answer === "yes") {
    store.approve(key, waiting);
    out.write("Approved (pseudoclaude trust revoke forgets it).\n");
  } else out.write("Not approved: they stay off this session.\n");
}
