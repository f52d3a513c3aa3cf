/**
 * The Content-Security-Policy of an MCP App's view, from what its resource declares
 * (`_meta.ui.csp`: `connectDomains`, `resourceDomains`, `frameDomains`, `baseUriDomains`):
 * exactly the declared origins and nothing by default, as the extension asks (a host may
 * restrict further, never loosen). The view stays sandboxed to an opaque origin (`sandbox`),
 * so no declaration gives it the studio's cookie or token.
 */
export interface ViewCsp {
  /** The header's value. */
  header: string;
  /** Declared entries refused, each with why (shown beside the view). */
  refused: string[];
}

type Directive = "connectDomains" | "resourceDomains" | "frameDomains" | "baseUriDomains";
const DIRECTIVES: readonly Directive[] = [
  "connectDomains",
  "resourceDomains",
  "frameDomains",
  "baseUriDomains",
];
/** Declared origins per directive, at most this many (a hostile server could list thousands). */
const MAX_ORIGINS = 32;
/** Plain-text origins on this machine: a view under development talks to its own server. */
const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** The view's policy for `declared` (the resource's `_meta.ui.csp`, anything a server sent). */
export function viewCsp(declared: unknown): ViewCsp {
  const refused: string[] = [];
  const allowed: Record<Directive, string[]> = {
    connectDomains: [],
    resourceDomains: [],
    frameDomains: [],
    baseUriDomains: [],
  };
  if (declared !== undefined && (typeof declared !== "object" || declared === null))
    refused.push(`csp: not an object (${JSON.stringify(declared)?.slice(0, 80)})`);
  const csp = (typeof declared === "object" && declared !== null ? declared : {}) as Record<
    string,
    unknown
  >;
  for (const directive of DIRECTIVES) {
    const entries = csp[directive];
    if (entries === undefined) continue;
    if (!Array.isArray(entries)) {
      refused.push(`${directive}: not a list`);
      continue;
    }
    for (const entry of entries.slice(0, MAX_ORIGINS)) {
      const origin = originOf(entry, directive === "connectDomains");
      if (typeof origin === "string") allowed[directive].push(origin);
      else refused.push(`${directive}: ${JSON.stringify(entry)?.slice(0, 120)} (${origin.why})`);
    }
    if (entries.length > MAX_ORIGINS)
      refused.push(
        `${directive}: ${entries.length - MAX_ORIGINS} entries past the first ${MAX_ORIGINS}`,
      );
  }
  const resources = allowed.resourceDomains.join(" ");
  const list = (origins: string[], none = "'none'") =>
    origins.length > 0 ? origins.join(" ") : none;
  const header = [
    "sandbox allow-scripts allow-forms",
    "default-src 'none'",
    `script-src 'unsafe-inline' ${resources}`.trim(),
    `style-src 'unsafe-inline' ${resources}`.trim(),
    `img-src data: ${resources}`.trim(),
    `font-src data: ${resources}`.trim(),
    `media-src data: ${resources}`.trim(),
    `connect-src ${list(allowed.connectDomains)}`,
    `frame-src ${list(allowed.frameDomains)}`,
    `base-uri ${list(allowed.baseUriDomains)}`,
    "object-src 'none'",
    "frame-ancestors 'self'",
  ].join("; ");
  return { header, refused };
}

/**
 * An entry as a CSP source: an `https:` origin (or `wss:` for connections), or `http:`/`ws:`
 * on this machine. Nothing else: no wildcard (the extension's hosts allow exact origins), no
 * path, no scheme-only source, no keyword, nothing that could end the directive.
 */
function originOf(entry: unknown, connect: boolean): string | { why: string } {
  if (typeof entry !== "string") return { why: "not a string" };
  if (/[\s;,'"]/.test(entry)) return { why: "not an origin" };
  if (entry.includes("*")) return { why: "a wildcard; name each origin" };
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    return { why: "not an origin" };
  }
  const local = LOCAL_HOSTS.has(url.hostname);
  const schemes = connect ? ["https:", "wss:"] : ["https:"];
  const localSchemes = connect ? ["http:", "ws:"] : ["http:"];
  if (!schemes.includes(url.protocol) && !(local && localSchemes.includes(url.protocol)))
    return { why: `${url.protocol} is not allowed (https, or http on this machine)` };
  if (`${url.origin}/` !== url.href.replace(/\/?$/, "/"))
    return { why: "not an origin (a path, a query or credentials)" };
  return url.origin;
}
