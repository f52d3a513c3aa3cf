/** The steps of an OAuth authorization, as a person reads a failure. */
export type OAuthStep = "discovery" | "registration" | "token" | "refresh";

/** The last OAuth request that went wrong: which step, where, and what the server answered. */
export interface OAuthStepFailure {
  step: OAuthStep;
  url: string;
  status: number;
  /** The start of the answer: an OAuth error object or a page. Never a token (failures carry none). */
  answer: string;
}

/**
 * A fetch for the SDK's OAuth client that remembers the last failed OAuth request (any
 * request not to the MCP endpoint itself), so a failure can say which step failed and what
 * the server answered instead of only what the SDK concluded.
 */
export class OAuthStepRecorder {
  last: OAuthStepFailure | undefined;

  constructor(private readonly mcpUrl: string) {}

  readonly fetch = async (input: string | URL, init?: RequestInit): Promise<Response> => {
    const response = await fetch(input, init);
    const url = String(input instanceof URL ? input.href : input);
    if (response.ok || url.split("?")[0] === this.mcpUrl.split("?")[0]) return response;
    const answer = (
      await response
        .clone()
        .text()
        .catch(() => "")
    )
      .replace(/\s+/g, " ")
      .slice(0, 300);
    this.last = { step: stepOf(url, init), url, status: response.status, answer };
    return response;
  };

  /** A sentence for the failure, or undefined when no OAuth request failed. */
  describe(): string | undefined {
    const last = this.last;
    if (!last) return undefined;
    return `OAuth ${last.step} failed at ${last.url}: the server answered HTTP ${last.status}${last.answer ? ` ${last.answer}` : ""}.`;
  }
}

function stepOf(url: string, init: RequestInit | undefined): OAuthStep {
  if (url.includes("/.well-known/")) return "discovery";
  const body =
    typeof init?.body === "string"
      ? init.body
      : init?.body instanceof URLSearchParams
        ? init.body.toString()
        : "";
  if (/grant_type=refresh_token/.test(body)) return "refresh";
  if (/grant_type=/.test(body)) return "token";
  return "registration";
}
