// Local `$ref`s (`#`, `#/$defs/X`, `#/definitions/X`, any JSON pointer into the same schema):
// what MCP servers send, since a tool's schema travels alone. Remote references and anchors are
// never fetched or guessed; they come out as `unknown`.

/**
 * The node `ref` points at inside `root`, or undefined when it is not a local JSON pointer or
 * points nowhere. Only own properties are followed, so `#/__proto__` finds nothing.
 */
export function resolveLocalRef(root: unknown, ref: string): unknown {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    const token = decodePointerToken(raw);
    if (token === undefined || typeof node !== "object" || node === null) return undefined;
    if (!Object.hasOwn(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

/** A pointer token as written in a URI fragment: percent-decoded, then `~1` → `/`, `~0` → `~`. */
function decodePointerToken(raw: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return undefined;
  }
  return decoded.replace(/~1/g, "/").replace(/~0/g, "~");
}
