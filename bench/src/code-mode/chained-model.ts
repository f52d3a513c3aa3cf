import { tokensOf } from "../tokens/count-tokens.js";
import type { Item, ModelRequest } from "../tokens/model-request.js";
import type { Reply } from "../tokens/reply.js";
import { CHAINED_PROGRAM, CHAINED_TASK, summaryText } from "./chained-task.js";

/**
 * `read_file` calls the scripted model makes in one answer (parallel tool calls): what current
 * models do with a list of independent reads, several a turn rather than one, and the fewest
 * requests a classic run can make without reading all fifty in a single answer.
 */
export const READS_PER_ANSWER = 10;

/** The name of our code tool, as the model sees it. */
const CODE_TOOL = "code_mode";

/** What the scripted model does on one request of the chained task. */
export interface ChainedStep {
  reply: Reply;
  /** One line for the stats: `call:task list_dir`, `call:task read_file x10`, `answer`. */
  label: string;
  /** The answer, given once the summary was written. */
  completed: boolean;
}

/** The request is the chained task's (its user prompt), not the tool-search task's. */
export function isChainedTask(request: ModelRequest): boolean {
  return request.items.some(
    (item) => item.kind === "text" && item.role === "user" && item.text === CHAINED_TASK.prompt,
  );
}

/**
 * The scripted model of the chained task, deterministic: with `code_mode` offered, one program
 * that does it all, then the answer; without it, as a model does it call by call: `list_dir`,
 * the files read `READS_PER_ANSWER` per answer, `write_file` with the summary, the answer.
 */
export function chainedStep(request: ModelRequest, n: number, input: number): ChainedStep {
  const history = new ChainedHistory(request.items);
  const call = (name: string, args: Record<string, unknown>, k = 0) => ({
    id: `call_bench${n}_${k}`,
    name,
    arguments: JSON.stringify(args),
  });
  const calls = (list: Array<ReturnType<typeof call>>, label: string): ChainedStep => ({
    reply: {
      calls: list,
      usage: { input, output: list.reduce((a, c) => a + tokensOf(c.name + c.arguments), 0) },
    },
    label,
    completed: false,
  });
  const answer = (marked: number, files: number): ChainedStep => {
    const text = `${marked} of the ${files} notes contain ${CHAINED_TASK.marker}; their names are in ${CHAINED_TASK.summaryPath}.`;
    return {
      reply: { text, calls: [], usage: { input, output: tokensOf(text) } },
      label: "answer",
      completed: true,
    };
  };

  if (request.callable.some((tool) => tool.name === CODE_TOOL)) {
    const result = history.resultsOf(CODE_TOOL)[0];
    if (!result)
      return calls([call(CODE_TOOL, { code: CHAINED_PROGRAM })], `call:task ${CODE_TOOL}`);
    const value = JSON.parse(result.text) as { files: number; marked: number };
    return answer(value.marked, value.files);
  }

  const listing = history.resultsOf("list_dir")[0];
  if (!listing)
    return calls([call("list_dir", { path: CHAINED_TASK.folder })], "call:task list_dir");
  const names = listing.text
    .split("\n")
    .slice(1)
    .map((line) => line.split("  ")[0]!);
  const read = new Map(
    history.resultsOf("read_file").map(({ args, text }) => [String(args.path), text]),
  );
  const unread = names.filter((name) => !read.has(`${CHAINED_TASK.folder}/${name}`));
  if (unread.length > 0) {
    const batch = unread.slice(0, READS_PER_ANSWER);
    return calls(
      batch.map((name, k) => call("read_file", { path: `${CHAINED_TASK.folder}/${name}` }, k)),
      `call:task read_file x${batch.length}`,
    );
  }
  const marked = names.filter((name) =>
    read.get(`${CHAINED_TASK.folder}/${name}`)?.includes(CHAINED_TASK.marker),
  );
  if (history.resultsOf("write_file").length === 0)
    return calls(
      [call("write_file", { path: CHAINED_TASK.summaryPath, content: summaryText(marked) })],
      "call:task write_file",
    );
  return answer(marked.length, names.length);
}

/** The calls so far that were answered, by tool name, with their arguments. */
class ChainedHistory {
  private readonly answered: Array<{ name: string; args: Record<string, unknown>; text: string }> =
    [];

  constructor(items: readonly Item[]) {
    const calls = new Map<string, Extract<Item, { kind: "call" }>>();
    for (const item of items) {
      if (item.kind === "call") calls.set(item.id, item);
      else if (item.kind === "result") {
        const call = calls.get(item.id);
        if (call)
          this.answered.push({
            name: call.name,
            args: JSON.parse(call.arguments || "{}") as Record<string, unknown>,
            text: item.text,
          });
      }
    }
  }

  resultsOf(name: string): Array<{ args: Record<string, unknown>; text: string }> {
    return this.answered.filter((call) => call.name === name);
  }
}
