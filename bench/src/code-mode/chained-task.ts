import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * The code-mode token row's task: a chain of dependent calls over a folder. List `notes/`, read
 * every file, count those that carry a marker, write a summary file, answer. Each file is a
 * short meeting note (~20 lines, ~1 KB, as notes and small source files are); every third
 * carries the marker.
 */
export const CHAINED_TASK = {
  folder: "notes",
  files: 50,
  marker: "TODO(release)",
  summaryPath: "summary.md",
  system:
    "You are an assistant that completes tasks with tools. Call the tools the task needs, " +
    "then answer in one sentence.",
  prompt:
    "Go through every file in the notes folder, count the files that contain the marker " +
    "TODO(release), write a summary to summary.md (the count, then the names of those files, " +
    "one a line) and tell me the count.",
} as const;

/** The note file `i` (1-based) is called this. */
export function noteName(i: number): string {
  return `note-${String(i).padStart(2, "0")}.md`;
}

/** The text of note `i`: ~20 lines; the marker in every third. */
export function noteText(i: number): string {
  const lines = [
    `# Weekly sync ${i}`,
    "",
    `Attendees: Ana, Bo, Chen, Dee (note ${i} of the series).`,
    "",
    "## Decisions",
    `- Keep the release train on its two-week cadence; build ${1000 + i} is the candidate.`,
    "- Move the flaky checkout test to the nightly suite until its fixture is rewritten.",
    "- The dashboard's p95 latency target stays at 300 ms.",
    "",
    "## Discussion",
    "The migration of the billing service is on track; the last two endpoints move next week.",
    "Support asked for clearer errors when a payment method is declined twice in a row.",
    "Design shared two options for the settings page; we will test both with five customers.",
    "",
    "## Actions",
    `- Ana: draft the rollout note for build ${1000 + i}.`,
    "- Bo: pair with support on the declined-payment errors.",
    i % 3 === 0
      ? `- ${CHAINED_TASK.marker}: Chen to confirm the feature flag is off by default.`
      : "- Chen: confirm the feature flag is off by default.",
    "- Dee: book the customer sessions for the settings page.",
  ];
  return `${lines.join("\n")}\n`;
}

/** Writes the task's folder under `root`. */
export function writeNotes(root: string): void {
  const folder = path.join(root, CHAINED_TASK.folder);
  mkdirSync(folder, { recursive: true });
  for (let i = 1; i <= CHAINED_TASK.files; i++)
    writeFileSync(path.join(folder, noteName(i)), noteText(i));
}

/** The summary both ways of doing the task write: the count, then the marked files' names. */
export function summaryText(marked: readonly string[]): string {
  return `${marked.length} files contain ${CHAINED_TASK.marker}:\n${marked.map((name) => `${name}\n`).join("")}`;
}

/** The summary a correct run leaves, from the notes as written. */
export function expectedSummary(): string {
  const marked: string[] = [];
  for (let i = 1; i <= CHAINED_TASK.files; i++)
    if (noteText(i).includes(CHAINED_TASK.marker)) marked.push(noteName(i));
  return summaryText(marked);
}

/**
 * The program the scripted model sends to `code_mode`: what a model writes from the tool's
 * declarations (`list_dir` and `read_file` answer text, as the description says), reading the
 * files in parallel. Its summary is `summaryText`'s, written in the program.
 */
export const CHAINED_PROGRAM = `const listing = await tools.list_dir({ path: "${CHAINED_TASK.folder}" });
const names = listing.split("\\n").slice(1).map((line) => line.split("  ")[0]);
const texts = await Promise.all(names.map((name) => tools.read_file({ path: "${CHAINED_TASK.folder}/" + name })));
const marked = names.filter((_, i) => texts[i].includes("${CHAINED_TASK.marker}"));
const summary = marked.length + " files contain ${CHAINED_TASK.marker}:\\n" + marked.map((name) => name + "\\n").join("");
await tools.write_file({ path: "${CHAINED_TASK.summaryPath}", content: summary });
return { files: names.length, marked: marked.length };`;
