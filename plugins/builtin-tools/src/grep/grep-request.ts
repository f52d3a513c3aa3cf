/** What to search; plain data, so it can be handed to a worker thread. */
export interface GrepRequest {
  /** Real paths of the workspace and extra roots, to show paths as the guard does. */
  workspace: string;
  extraRoots: string[];
  /** JavaScript regular expression source. */
  pattern: string;
  caseInsensitive: boolean;
  /** Real path of the file or directory to search. */
  target: string;
  targetIsFile: boolean;
  /** The confining root that holds `target` (its `.gitignore` files apply below it). */
  root: string;
  /** File filter; gitignore-style (no `/`: the file name at any depth). */
  glob?: string;
  contextLines: number;
  mode: GrepMode;
  /** Most matching lines (content) or files (files_with_matches, count) reported. */
  limit: number;
  respectGitignore: boolean;
  maxOutputChars: number;
  /** Ask the agent's path rules about each file before it is searched (see `JudgeFiles`). */
  judgeFiles: boolean;
}

/** The files (as shown) that path rules keep out of a search, of those asked about. */
export type JudgeFiles = (files: string[]) => Promise<Set<string>>;

/** Files judged in one message to and from the worker. */
export const JUDGED_FILES_PER_MESSAGE = 128;

export type GrepMode = "content" | "files_with_matches" | "count";

/** What a search found, already formatted and bounded. */
export interface GrepOutcome {
  /** Lines in ripgrep's format (`path:line:text`, context `path-line-text`, `--` between groups). */
  lines: string[];
  matches: number;
  filesWithMatches: number;
  filesSearched: number;
  binarySkipped: number;
  unreadable: number;
  /** Files that path rules kept out (never read). */
  withheld: number;
  /** The `limit` stopped the search early. */
  limitReached: boolean;
  /** The output cap stopped the search early. */
  outputCapped: boolean;
}
