/**
 * What the scripted model answers, before an API shapes it: text, function calls, or a call of
 * the provider's own search (with what it loaded, when the server runs the search).
 */
export interface Reply {
  text?: string;
  calls: Array<{ id: string; name: string; namespace?: string; arguments: string }>;
  toolSearch?: {
    id: string;
    execution: "server" | "client";
    arguments: { paths: string[] };
    /** Server execution only: the definitions the search loads. */
    loaded?: Array<Record<string, unknown>>;
  };
  usage: { input: number; output: number };
}
