/**
 * `text.slice(start, end)` as a string of its own. V8 makes a slice of 13 or more characters
 * point into the original instead of copying it, so the first 100,000 characters kept of a
 * 50 MB tool output would keep all 50 MB alive for as long as the conversation holds them
 * (measured: the heap stayed 50 MB larger after a GC). Copying the kept part is cheap; it is
 * bounded by what is kept. UTF-16 both ways, so every code unit survives as it was.
 */
export function detachedSlice(text: string, start: number, end?: number): string {
  const slice = text.slice(start, end);
  return slice.length < 13 ? slice : Buffer.from(slice, "utf16le").toString("utf16le");
}
