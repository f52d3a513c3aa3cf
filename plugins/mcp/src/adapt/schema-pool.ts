/**
 * One object for each distinct schema of a listing: tools listed with the same input or output
 * schema share it instead of holding a parsed copy each (JSON parsing makes one per tool, its
 * strings included). Servers that generate tools, or a gateway offering many servers of one
 * kind, list the same schema many times. Lives while one listing is adapted, so the texts it
 * keys by are not kept; a schema is only shared with one of the same text, and nothing writes
 * to a definition's schema.
 */
export class SchemaPool {
  private readonly seen = new Map<string, Record<string, unknown>>();

  shared(schema: Record<string, unknown>): Record<string, unknown> {
    const text = JSON.stringify(schema);
    const known = this.seen.get(text);
    if (known) return known;
    this.seen.set(text, schema);
    return schema;
  }
}
