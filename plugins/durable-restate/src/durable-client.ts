import type { RunResult, SessionEntry } from "@pseudoclaude/core";
import type { DurableEventQuery } from "./answer-events.js";
import type { DurableRunInput } from "./durable-agent.js";
import type { PendingApproval } from "./pending-approval.js";
import type { DurableEventPage } from "./run-events.js";
import { DEFAULT_OBJECT_NAME, ENTRIES_KEY } from "./state-keys.js";

/** Where Restate's ingress and admin API are when nobody says (the server's own defaults). */
export const DEFAULT_INGRESS = "http://127.0.0.1:8080";
export const DEFAULT_ADMIN = "http://127.0.0.1:9070";

export interface DurableClientOptions {
  /** Restate's ingress. Default `http://127.0.0.1:8080`. */
  ingress?: string | undefined;
  /** Restate's admin API, for listing sessions. Default `http://127.0.0.1:9070`. */
  admin?: string | undefined;
  /** The session object's name. Default `pseudoclaude`. */
  object?: string | undefined;
  /** Each request's limit. Default 30 s; `result` waits as long as the run takes. */
  timeoutMs?: number | undefined;
}

/** A durable session as the server holds it: its id and conversation. */
export interface DurableSession {
  id: string;
  entries: SessionEntry[];
}

/** Codes of a {@link DurableRequestError}. */
export type DurableRequestErrorCode = "restate_unreachable" | "restate_error" | "run_failed";

/**
 * Restate could not be reached (`restate_unreachable`), refused a request (`restate_error`),
 * or the run itself failed (`run_failed`, from `result`): what, and why.
 */
export class DurableRequestError extends Error {
  constructor(
    message: string,
    /** The HTTP status; undefined when the server could not be reached. */
    readonly status?: number,
    readonly code: DurableRequestErrorCode = status === undefined
      ? "restate_unreachable"
      : "restate_error",
  ) {
    super(message);
    this.name = "DurableRequestError";
  }

  /**
   * True for a DurableRequestError, also one from another copy of this module (two versions
   * installed side by side), so a `catch` can read `code` typed.
   */
  static is(value: unknown): value is DurableRequestError {
    return (
      value instanceof DurableRequestError ||
      (value instanceof Error &&
        value.name === "DurableRequestError" &&
        typeof (value as { code?: unknown }).code === "string")
    );
  }
}

/**
 * Durable runs from anywhere that reaches Restate, over its HTTP API only (this module loads
 * no SDK): submit a run, follow its events, wait for its result, answer its approvals, list
 * sessions. What `pseudoclaude run --durable restate` and `approve` use.
 */
export class DurableClient {
  readonly ingress: string;
  readonly admin: string;
  readonly object: string;
  private readonly timeoutMs: number;

  constructor(options: DurableClientOptions = {}) {
    this.ingress = trimSlash(options.ingress ?? DEFAULT_INGRESS);
    this.admin = trimSlash(options.admin ?? DEFAULT_ADMIN);
    this.object = options.object ?? DEFAULT_OBJECT_NAME;
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  /** Queue a run of `session` (after the runs already queued for it); its invocation id. */
  async submit(session: string, input: DurableRunInput): Promise<string> {
    const body = await this.post(`${this.objectUrl(session)}/run/send`, input);
    const id = (body as { invocationId?: unknown }).invocationId;
    if (typeof id !== "string")
      throw new DurableRequestError(
        `Restate's answer had no invocationId: ${JSON.stringify(body)}`,
      );
    return id;
  }

  /**
   * The session's latest run's events from batch `after` on. Needs a live worker. With
   * `waitMs`, a page with nothing new (for `run`, when given) comes only after the run's next
   * batch or `waitMs`, whichever is first: a follower long-polls instead of polling.
   */
  async events(
    session: string,
    after: number,
    signal?: AbortSignal,
    wait: { waitMs?: number; run?: string } = {},
  ): Promise<DurableEventPage> {
    const query: DurableEventQuery = { after, ...wait };
    return (await this.post(
      `${this.objectUrl(session)}/events`,
      query,
      signal,
      // The wait is the server's; the request's own limit comes on top of it.
      this.timeoutMs + (wait.waitMs ?? 0),
    )) as DurableEventPage;
  }

  /** The approvals the session's run waits for. Needs a live worker. */
  async pending(session: string): Promise<PendingApproval[]> {
    return (await this.post(`${this.objectUrl(session)}/pending`, null)) as PendingApproval[];
  }

  /** Wait for a run's result, however long it takes; its failure as a DurableRequestError. */
  async result(invocationId: string, signal?: AbortSignal): Promise<RunResult> {
    const url = `${this.ingress}/restate/invocation/${encodeURIComponent(invocationId)}/attach`;
    return (await this.request(
      url,
      { method: "GET", ...(signal ? { signal } : {}) },
      false,
    )) as RunResult;
  }

  /** Answer an approval (`allow` or `deny`, with an optional reason for the model). */
  async answer(approvalId: string, verdict: "allow" | "deny", reason?: string): Promise<void> {
    const answer = reason !== undefined ? { verdict, reason } : verdict;
    await this.post(
      `${this.ingress}/restate/awakeables/${encodeURIComponent(approvalId)}/resolve`,
      answer,
    );
  }

  /**
   * Tell the server about a worker (`restate deployments register URL`): it discovers the
   * handlers there. Registering the same URL again updates it.
   */
  async register(workerUrl: string): Promise<void> {
    await this.post(`${this.admin}/deployments`, { uri: workerUrl, force: true });
  }

  /** Every durable session the server holds, read from its state (no worker needed). */
  async sessions(): Promise<DurableSession[]> {
    return this.queryEntries("");
  }

  /** One durable session, or undefined when the server holds none by that id. */
  async session(id: string): Promise<DurableSession | undefined> {
    return (await this.queryEntries(` and service_key = '${id.replaceAll("'", "''")}'`))[0];
  }

  private async queryEntries(where: string): Promise<DurableSession[]> {
    const object = this.object.replaceAll("'", "''");
    const query =
      "select service_key, value_utf8 from state " +
      `where service_name = '${object}' and key = '${ENTRIES_KEY}'${where} order by service_key`;
    const body = (await this.post(`${this.admin}/query`, { query })) as {
      rows?: Array<{ service_key: string; value_utf8: string }>;
    };
    return (body.rows ?? []).map((row) => ({
      id: row.service_key,
      entries: JSON.parse(row.value_utf8) as SessionEntry[],
    }));
  }

  private objectUrl(session: string): string {
    return `${this.ingress}/${encodeURIComponent(this.object)}/${encodeURIComponent(session)}`;
  }

  private post(
    url: string,
    body: unknown,
    signal?: AbortSignal,
    timeoutMs = this.timeoutMs,
  ): Promise<unknown> {
    return this.request(
      url,
      {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify(body),
        ...(signal ? { signal } : {}),
      },
      timeoutMs,
    );
  }

  /** `timeoutMs` false: as long as it takes (a run's result). */
  private async request(
    url: string,
    init: RequestInit,
    timeoutMs: number | false = this.timeoutMs,
  ): Promise<unknown> {
    const signals = [
      init.signal,
      timeoutMs === false ? undefined : AbortSignal.timeout(timeoutMs),
    ].filter((signal): signal is AbortSignal => signal != null);
    let response: Response;
    try {
      response = await fetch(url, { ...init, signal: AbortSignal.any(signals) });
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new DurableRequestError(`Cannot reach Restate at ${new URL(url).origin}: ${why}`);
    }
    const text = await response.text();
    if (!response.ok) {
      throw new DurableRequestError(restateMessage(text, response.status), response.status);
    }
    return text === "" ? null : JSON.parse(text);
  }
}

/** Restate's error bodies are `{"message": ...}`; say that, else the start of the body. */
function restateMessage(text: string, status: number): string {
  try {
    const message = (JSON.parse(text) as { message?: unknown }).message;
    if (typeof message === "string") return message;
  } catch {
    // not JSON: the text itself
  }
  return `${status}: ${text.slice(0, 300)}`;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}
