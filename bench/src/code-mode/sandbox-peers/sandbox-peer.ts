/**
 * A code-mode sandbox measured by the start-up and per-call rows: ours, or a peer framework's
 * code mode used the way its docs show, each with one trivial in-memory tool, `echo`
 * (`{ x: number }`, answers `x`).
 */
export interface SandboxPeer {
  readonly name: string;
  /** The packages measured, with exact versions, and how they are driven. */
  readonly package: string;
  /** The Node major it runs on: its packages' declared engines (22 where they ask for it). */
  readonly node: 20 | 22;
  /**
   * Calls per measured program (default 200): more where each program's own start varies by
   * more than 200 calls cost (Mastra's process per program).
   */
  readonly calls?: number;
  /** Imports what it needs and builds its code tool; the cold figure's clock includes it. */
  load(): Promise<PeerRunner>;
}

export interface PeerRunner {
  /** Runs one program (the body of an async function, ending in `return`); its value. */
  run(body: string): Promise<unknown>;
  /** The expression a program calls `echo` through (`tools.echo`, `external_echo`). */
  readonly echo: string;
  /** One call of the same tool without the sandbox, the way the framework calls a tool. */
  direct(x: number): Promise<unknown>;
  close?(): Promise<void>;
}

/** The program whose first run is the cold figure and whose later runs are the warm one. */
export const TRIVIAL = "return 1 + 1;";

/** `n` calls of echo one after another, summed (the sum checks that every call answered). */
export function sequentialCalls(echo: string, n: number): string {
  return `let sum = 0;\nfor (let i = 0; i < ${n}; i++) sum += Number(await ${echo}({ x: i }));\nreturn sum;`;
}

/** `n` calls of echo made at once (`Promise.all`), summed. */
export function parallelCalls(echo: string, n: number): string {
  return `const all = await Promise.all(Array.from({ length: ${n} }, (_, i) => ${echo}({ x: i })));\nreturn all.reduce((sum, v) => sum + Number(v), 0);`;
}

/** What the sums of `n` calls must be. */
export function expectedSum(n: number): number {
  return (n * (n - 1)) / 2;
}

/** A value the program returned, whatever wrapper the framework puts it in. */
export function unwrap(value: unknown): unknown {
  if (value && typeof value === "object") {
    const record = value as Record<string, unknown>;
    if (record.success === false || record.ok === false)
      throw new Error(`program failed: ${JSON.stringify(record.error ?? record).slice(0, 300)}`);
    if ("result" in record) return record.result;
    if ("value" in record) return record.value;
  }
  return value;
}
