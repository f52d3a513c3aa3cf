/** The studio's API as the page calls it: same origin, the token travels in the cookie. */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(path, {
    ...init,
    headers: { "content-type": "application/json", ...(init.headers ?? {}) },
  });
  const text = await response.text();
  const body = text ? (JSON.parse(text) as unknown) : {};
  if (!response.ok) {
    const error = (body as { error?: { code?: string; message?: string } }).error;
    throw new ApiError(
      response.status,
      error?.code ?? "http_error",
      error?.message ?? `${response.status} ${response.statusText}`,
    );
  }
  return body as T;
}

export function post<T>(path: string, body: unknown = {}): Promise<T> {
  return api<T>(path, { method: "POST", body: JSON.stringify(body) });
}

/** One message of the live feed. */
export type FeedEvent = { type: string } & Record<string, unknown>;

/** Follow `/api/events`; the browser reconnects by itself when the stream drops. */
export function followEvents(
  onEvent: (event: FeedEvent) => void,
  onState: (connected: boolean) => void,
): EventSource {
  const source = new EventSource("/api/events");
  source.onopen = () => onState(true);
  source.onerror = () => onState(false);
  source.onmessage = (message) => onEvent(JSON.parse(message.data as string) as FeedEvent);
  return source;
}
