import { createHash } from "node:crypto";

/**
 * JSON with object keys sorted at every depth, so two objects with the same content give the
 * same text whatever order a file listed their keys in.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map(
        (key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`,
      )
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

/**
 * The one digest recipe of every consent subject: SHA-256 of the canonical JSON of everything
 * that decides what the subject may do. Any change to any of it asks the user again.
 */
export function consentDigest(covers: unknown): string {
  return `sha256:${createHash("sha256").update(canonicalJson(covers)).digest("hex")}`;
}
