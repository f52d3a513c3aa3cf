/** Parse a function call's JSON arguments; broken JSON stays the raw string, so the registry answers `invalid_arguments`. */
export function parseArguments(text: string): unknown {
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
