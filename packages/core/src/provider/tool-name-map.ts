import { hashedToolName, VALID_TOOL_NAME } from "../tools/tool-name.js";

/**
 * The registry's tool names as a model API sees them, and back. Shared by providers, so every
 * provider maps names the same way. Names the API accepts pass
 * unchanged; others (`mcp__docs.v2__search`, names over 64 characters) become a sanitized
 * prefix plus a short hash of the original, so the mapping is deterministic across turns and
 * two different names never meet on the wire.
 */
export interface ToolNameMap {
  /** The name sent to the API for a registry name. */
  toWire(name: string): string;
  /** The registry name for a name the model used; names we never sent pass through. */
  fromWire(name: string): string;
}

/** Build the map for the tools of one request. */
export function createToolNameMap(names: Iterable<string>): ToolNameMap {
  const toWire = new Map<string, string>();
  const fromWire = new Map<string, string>();
  for (const name of names) {
    if (toWire.has(name)) continue;
    let wire = wireToolName(name);
    // A clash is only possible with a registry name that looks exactly like a hashed one;
    // salting keeps the map reversible even then.
    for (let salt = 1; fromWire.has(wire) && fromWire.get(wire) !== name; salt++) {
      wire = hashedToolName(name, `${salt}${name}`);
    }
    toWire.set(name, wire);
    fromWire.set(wire, name);
  }
  return {
    toWire: (name) => toWire.get(name) ?? wireToolName(name),
    fromWire: (name) => fromWire.get(name) ?? name,
  };
}

/** The wire name of one registry name, without knowing the other tools. */
export function wireToolName(name: string): string {
  return VALID_TOOL_NAME.test(name) ? name : hashedToolName(name);
}
