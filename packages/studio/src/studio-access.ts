import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { StudioHttpError } from "./http-json.js";

/** The cookie the page keeps the token in once it was opened with `?token=`. */
export const TOKEN_COOKIE = "pseudoclaude_studio";

/**
 * Who may talk to the studio: only a client that knows this start's token, through a Host the
 * studio answers to (a page on another site that points a DNS name at 127.0.0.1 sends its own
 * Host), and for requests that change something, from the studio's own origin (a page on
 * another site cannot make the browser send them with the cookie).
 */
export class StudioAccess {
  private readonly hosts: ReadonlySet<string>;

  constructor(
    private readonly token: string,
    port: number,
  ) {
    this.hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  }

  /** Throws a StudioHttpError (421, 401 or 403) unless the request may go on. */
  check(request: IncomingMessage, url: URL): void {
    const host = request.headers.host ?? "";
    if (!this.hosts.has(host))
      throw new StudioHttpError(
        421,
        "wrong_host",
        `The studio answers only to 127.0.0.1 and localhost, not to "${host}".`,
      );
    if (!this.tokenMatches(this.givenToken(request, url)))
      throw new StudioHttpError(
        401,
        "token_required",
        "This studio needs its token: open the URL `pseudoclaude studio` printed (it ends in ?token=…).",
      );
    const origin = request.headers.origin;
    if (request.method !== "GET" && origin !== undefined && !this.hosts.has(hostOf(origin)))
      throw new StudioHttpError(403, "wrong_origin", `Requests from ${origin} are refused.`);
  }

  /** Whether the request carried the token in its URL (then the page sets the cookie). */
  cameWithUrlToken(url: URL): boolean {
    return this.tokenMatches(url.searchParams.get("token") ?? undefined);
  }

  cookieHeader(): string {
    return `${TOKEN_COOKIE}=${this.token}; HttpOnly; SameSite=Strict; Path=/`;
  }

  private givenToken(request: IncomingMessage, url: URL): string | undefined {
    const header = request.headers["x-studio-token"];
    if (typeof header === "string") return header;
    const authorization = request.headers.authorization;
    if (authorization?.startsWith("Bearer ")) return authorization.slice("Bearer ".length);
    const fromUrl = url.searchParams.get("token");
    if (fromUrl) return fromUrl;
    return cookieValue(request.headers.cookie, TOKEN_COOKIE);
  }

  private tokenMatches(given: string | undefined): boolean {
    if (given === undefined) return false;
    const expected = Buffer.from(this.token);
    const actual = Buffer.from(given);
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  }
}

function hostOf(origin: string): string {
  try {
    return new URL(origin).host;
  } catch {
    return "";
  }
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=");
  }
  return undefined;
}
