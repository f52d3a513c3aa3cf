import os from "node:os";
import type { LoadedConfig, Plugin } from "@pseudoclaude/core";
import {
  type ConsentSubject,
  ENV_WIDENING,
  envConsentRequest,
  PERMISSIONS_WIDENING,
  permissionsConsentRequest,
  subjectId,
  type WideningSetting,
} from "@pseudoclaude/core/consent";

/**
 * Everything the workspace's files ask for that widens what the agent does, from the kernel's
 * own `permissions` and every plugin's trust declaration; nothing is started. What `trust`
 * lists and approves, and what `chat` asks about at start.
 */
export async function workspaceRequests(
  plugins: readonly Plugin[],
  context: { config: LoadedConfig; workspace: string; homeDir?: string; env?: NodeJS.ProcessEnv },
): Promise<ConsentSubject[]> {
  const request = {
    config: context.config,
    workspace: context.workspace,
    homeDir: context.homeDir ?? os.homedir(),
    env: context.env ?? process.env,
  };
  const subjects: ConsentSubject[] = [];
  const permissions = permissionsConsentRequest(context.config);
  if (permissions) subjects.push(permissions);
  const env = envConsentRequest(context.config);
  if (env) subjects.push(env);
  for (const plugin of plugins)
    if (plugin.trust) subjects.push(...(await plugin.trust.requests(request)));
  const seen = new Set<string>();
  return subjects.filter((subject) => {
    const id = subjectId(subject);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/** Every setting a workspace may use only with consent: the kernel's, then each plugin's. */
export function wideningSettings(plugins: readonly Plugin[]): WideningSetting[] {
  return [
    ...PERMISSIONS_WIDENING,
    ...ENV_WIDENING,
    ...plugins.flatMap((plugin) => plugin.trust?.widening ?? []),
  ];
}

/** The widening settings as the Markdown table `docs/security.md` carries. */
export function wideningTable(settings: readonly WideningSetting[]): string {
  const cell = (text: string) => text.replace(/\|/g, "\\|");
  return [
    "| Setting in the workspace | Consent subject | What it would do without your consent |",
    "|---|---|---|",
    ...settings.map(
      (setting) =>
        `| \`${cell(setting.setting)}\` | \`${setting.kind}\` | ${cell(setting.effect)} |`,
    ),
  ].join("\n");
}
