// A node:test reporter that writes one JSON line per finished test (suites left out), so the
// test runner can count what ran. Used beside the usual reporter by scripts/run-tests.mjs.
export default async function* countReporter(source) {
  for await (const event of source) {
    if (event.type !== "test:pass" && event.type !== "test:fail") continue;
    if (event.data.details?.type === "suite") continue;
    yield `${JSON.stringify({ file: event.data.file, name: event.data.name, passed: event.type === "test:pass" })}\n`;
  }
}
