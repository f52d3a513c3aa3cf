/**
 * The model's Markdown for a terminal (bold, lists, headings, code blocks highlighted by
 * language, links with their address), by `marked` with `marked-terminal`. Loaded on demand:
 * only a chat on a terminal needs it, and the CLI starts without it.
 */
export async function loadTerminalMarkdown(width: number): Promise<(markdown: string) => string> {
  const [{ Marked }, { markedTerminal }] = await Promise.all([
    import("marked"),
    import("marked-terminal"),
  ]);
  const marked = new Marked(markedTerminal({ width, reflowText: true, tab: 2 }));
  return (markdown) => marked.parse(markdown, { async: false }) as string;
}
