import { type ClientHandlers, McpCallError, type McpSession } from "../mcp-session.js";
import { answerElicitation } from "../session/era-handlers.js";

/** The 2025-11-25 error for a request that waits on URL elicitations the person must finish. */
export const URL_ELICITATION_REQUIRED = -32042;

/** How long a finished page is waited for after the person said they would open it. */
const COMPLETION_WAIT_MS = 10 * 60_000;

export interface UrlElicitation {
  elicitationId: string;
  url: string;
  message: string;
}

/** The URL elicitations a refused call asks for (`-32042`), or undefined for any other error. */
export function urlElicitationsOf(error: unknown): UrlElicitation[] | undefined {
  if (!(error instanceof McpCallError) || error.rpc?.code !== URL_ELICITATION_REQUIRED)
    return undefined;
  const listed = (error.rpc.data as { elicitations?: unknown } | undefined)?.elicitations;
  if (!Array.isArray(listed)) return undefined;
  const elicitations = listed.filter(
    (item): item is UrlElicitation =>
      typeof item?.elicitationId === "string" &&
      typeof item?.url === "string" &&
      typeof item?.message === "string",
  );
  return elicitations.length > 0 ? elicitations : undefined;
}

/**
 * A call the server refused until the person finishes some pages (2025-11-25 URL elicitation):
 * each page goes to the person as a URL elicitation (http(s) only, as any other), and once every
 * one is accepted and the server says it is complete (`notifications/elicitation/complete`),
 * the call may be sent again. False when the person declines one, nobody can be asked, or the
 * call ends (its own timeout or a cancel) before the server says so.
 */
export async function finishUrlElicitations(
  session: McpSession,
  elicitations: UrlElicitation[],
  server: { name: string },
  handlers: ClientHandlers,
  signal: AbortSignal,
): Promise<boolean> {
  const waiting = new Set(elicitations.map((item) => item.elicitationId));
  let finished!: () => void;
  const done = new Promise<void>((resolve) => (finished = resolve));
  // Heard from before the person answers: the page may be finished while the dialog is open.
  const listening = session.onElicitationComplete((id) => {
    waiting.delete(id);
    if (waiting.size === 0) finished();
  });
  try {
    for (const item of elicitations) {
      const answer = await answerElicitation(
        { mode: "url", url: item.url, message: item.message },
        server,
        handlers,
        signal,
      );
      if (answer.action !== "accept") return false;
    }
    if (waiting.size === 0) return true;
    const ended = new Promise<false>((resolve) => {
      const timer = setTimeout(() => resolve(false), COMPLETION_WAIT_MS);
      timer.unref();
      signal.addEventListener("abort", () => resolve(false), { once: true });
    });
    return await Promise.race([done.then(() => true), ended]);
  } finally {
    listening.dispose();
  }
}
