import { type SessionSummary, summarizeSession } from "@pseudoclaude/core";
import type { DurableClient, DurableSession } from "@pseudoclaude/durable-restate/client";
import { CliUsageError } from "../cli-errors.js";
import type { CliFlags } from "../cli-options.js";
import { importOptional } from "../optional-package.js";

/** What the CLI uses of the durable package's HTTP client (it loads no Restate SDK). */
export type DurableClientModule = typeof import("@pseudoclaude/durable-restate/client");

/** The engines `--durable` can name. Restate today; the kernel's contract is engine-neutral. */
export const DURABLE_ENGINES = ["restate"] as const;

/**
 * Where Restate's ingress and admin API are when neither a flag nor the environment says:
 * Restate's own default ports. Written here, not imported, because help and flag parsing
 * must work when the optional durable package is not installed; a test checks they equal
 * the package's `DEFAULT_INGRESS` and `DEFAULT_ADMIN`.
 */
export const DEFAULT_RESTATE_INGRESS = "http://127.0.0.1:8080";
export const DEFAULT_RESTATE_ADMIN = "http://127.0.0.1:9070";

/**
 * The durable package's client, loaded on first use: `@pseudoclaude/durable-restate` is an
 * optional peer of the CLI, so a missing one is a clear error naming it.
 */
export function loadDurableClient(): Promise<DurableClientModule> {
  return importOptional<DurableClientModule>(
    "@pseudoclaude/durable-restate/client",
    "Durable runs (--durable restate)",
  );
}

/** `--durable ENGINE`: undefined when not given; an engine we do not have is a usage error. */
export function parseDurable(value: string | undefined): "restate" | undefined {
  if (value === undefined) return undefined;
  if (value === "restate") return value;
  throw new CliUsageError(
    "invalid_flag_value",
    `--durable must be one of ${DURABLE_ENGINES.join(", ")} (got "${value}").`,
    { details: { flag: "durable", value } },
  );
}

/** Restate's ingress: `--ingress`, else `$PSEUDOCLAUDE_RESTATE_INGRESS`, else the default. */
export function ingressUrl(flags: CliFlags): string {
  return flags.ingress ?? process.env.PSEUDOCLAUDE_RESTATE_INGRESS ?? DEFAULT_RESTATE_INGRESS;
}

/** Restate's admin API: `--admin`, else `$PSEUDOCLAUDE_RESTATE_ADMIN`, else the default. */
export function adminUrl(flags: CliFlags): string {
  return flags.admin ?? process.env.PSEUDOCLAUDE_RESTATE_ADMIN ?? DEFAULT_RESTATE_ADMIN;
}

/** A client of the server the flags name (it loads no SDK: plain HTTP). */
export async function durableClient(flags: CliFlags): Promise<DurableClient> {
  const { DurableClient } = await loadDurableClient();
  return new DurableClient({ ingress: ingressUrl(flags), admin: adminUrl(flags) });
}

/** Durable sessions as the session list shows them, newest first. */
export function newestFirst(held: readonly DurableSession[]): SessionSummary[] {
  return held
    .map(({ id, entries }) => summarizeSession(id, entries))
    .sort((a, b) => b.updated.localeCompare(a.updated));
}

/** `--on-interrupted ask|retry|fail`: what a replay does with a side effect its worker died in. */
export function parseOnInterrupted(
  value: string | undefined,
): "ask" | "retry" | "fail" | undefined {
  if (value === undefined) return undefined;
  if (value === "ask" || value === "retry" || value === "fail") return value;
  throw new CliUsageError(
    "invalid_flag_value",
    `--on-interrupted must be ask, retry or fail (got "${value}").`,
    { details: { flag: "on-interrupted", value } },
  );
}

/**
 * `--identity-key KEY` (repeatable), else `$PSEUDOCLAUDE_RESTATE_IDENTITY_KEYS` (comma
 * separated): the request identity public keys a worker checks the server's signature with.
 */
export function identityKeys(flags: CliFlags): string[] {
  const given =
    flags["identity-key"] ??
    (process.env.PSEUDOCLAUDE_RESTATE_IDENTITY_KEYS ?? "")
      .split(",")
      .map((key) => key.trim())
      .filter(Boolean);
  for (const key of given)
    if (!/^publickeyv1_[1-9A-HJ-NP-Za-km-z]+$/.test(key))
      throw new CliUsageError(
        "invalid_flag_value",
        `--identity-key takes a Restate request identity public key, publickeyv1_… as the server logs it at start (got "${key}").`,
        { details: { flag: "identity-key", value: key } },
      );
  return given;
}
