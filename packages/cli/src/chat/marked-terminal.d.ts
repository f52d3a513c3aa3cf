// marked-terminal ships no types, and @types/marked-terminal is written for marked < 12: the
// one function the chat uses, typed against the marked it runs with.
declare module "marked-terminal" {
  import type { MarkedExtension } from "marked";

  export function markedTerminal(
    options?: Record<string, unknown>,
    highlightOptions?: Record<string, unknown>,
  ): MarkedExtension;
}
