/**
 * The text a replay server answers every call of `tool` with. The scripted model looks for it in
 * a tool result to know that the call reached the server (not an error a framework made up).
 */
export function cannedText(tool: string): string {
  return `ok: ${tool} called`;
}
