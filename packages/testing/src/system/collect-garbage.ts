import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

// A full collection also when the test runner was not started with --expose-gc: the flag is
// set at run time and a fresh context gets `gc` from it.
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** Collect garbage fully (twice: finalizers of the first round free more in the second). */
export function collectGarbage(): void {
  gc();
  gc();
}
