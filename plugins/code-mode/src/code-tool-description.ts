import type { SandboxLimits } from "./sandbox/index.js";

/** The code tool's name, as the model and the policy know it. */
export const CODE_TOOL_NAME = "code_mode";

/**
 * What the model reads about the code tool: when it pays, how a program is written, that every
 * call inside is judged like its own, what is not there, the limits, and the declarations of
 * the tools it may call (the loaded ones; the others by name through `callTool`).
 */
export function codeToolDescription(
  declarations: string,
  omitted: readonly string[],
  limits: SandboxLimits,
): string {
  const lines = [
    "Run a short JavaScript program (TypeScript syntax is accepted) that calls tools and returns one result. Use it when a task needs several tool calls, a loop, filtering or arithmetic over results: only what the program returns comes back to you, not each call's result.",
    "- The code is the body of an async function: use top-level `await` and end with `return <value>` (JSON-serialisable).",
    '- Call tools as `await tools.<name>(input)` (an MCP server\'s as `tools.<server>.<tool>`), or `await callTool("<full name>", input)` for a tool not declared below (find it with tool_search first). Use `Promise.all` for independent calls; answers reach the program in the order the calls were made.',
    "- Each call is checked by the same permission policy as your own calls and may ask the user. A denied or failed call throws a `ToolError` with `.code` (`denied`, `timeout`, `invalid_arguments`, …) and `.message`, which the program may catch.",
    "- A structured result arrives as an object, a text result as a string.",
    "- Not available: fetch, require, import, timers, the file system, process. `Date` and `Math.random` work.",
    `- Limits: ${seconds(limits.cpuMs)} of computation, ${seconds(limits.wallMs)} in all, ${Math.round(limits.memoryBytes / 2 ** 20)} MB of memory, ${limits.maxCalls} tool calls, ${Math.round(limits.maxResultBytes / 1024)} KB of result. \`console.log\` output comes back with the result.`,
    "",
    "```ts",
    declarations.trimEnd(),
    "```",
  ];
  if (omitted.length > 0)
    lines.push(`Not declared here for space, callable with callTool: ${omitted.join(", ")}.`);
  return lines.join("\n");
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
