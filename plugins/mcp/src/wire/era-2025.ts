import type { Era } from "./era.js";

/**
 * 2025-11-25 on the wire: answers taken as they come, and over HTTP a session (its id on every
 * request, the DELETE at the end), a cancelled request told with `notifications/cancelled`,
 * and a GET stream for what the server says unasked. The protocol version header is the one
 * `initialize` settled, which the client hands the transport.
 */
export const ERA_2025: Era = { connection: {}, http: {} };
