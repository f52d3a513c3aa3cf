import { useState } from "preact/hooks";
import type { ContentBlock, ToolResult } from "../types.js";

/** Longer text than this many lines is folded until the person opens it. */
const FOLD_LINES = 30;

/** A tool's result with every kind of content MCP has, and its structured content. */
export function ResultView({ result }: { result: ToolResult }) {
  return (
    <div class={result.ok ? "result ok" : "result failed"} data-testid="result">
      {result.ok ? null : (
        <div class="result-error">
          <strong>{result.error?.code ?? "error"}</strong> {result.error?.message}
        </div>
      )}
      {result.content.map((block, index) => (
        <Block key={index} block={block} />
      ))}
      {result.structured !== undefined ? (
        <Folded
          label="structured content"
          class="structured"
          text={JSON.stringify(result.structured, null, 2)}
          preClass="mono"
        />
      ) : null}
    </div>
  );
}

function Block({ block }: { block: ContentBlock }) {
  switch (block.type) {
    case "text":
      return <Folded label="text" text={block.text} preClass="block text" bareWhenShort />;
    case "image":
      return (
        <img
          class="block image"
          alt="what the tool returned"
          src={`data:${block.mimeType};base64,${block.data}`}
        />
      );
    case "audio":
      return (
        // biome-ignore lint/a11y/useMediaCaption: a tool's audio has no captions to give.
        <audio class="block" controls src={`data:${block.mimeType};base64,${block.data}`} />
      );
    case "resource_link":
      return (
        <div class="block link">
          <span class="kind">link</span> <code>{block.uri}</code>
          {(block.title ?? block.name) ? ` ${block.title ?? block.name}` : ""}
          {block.mimeType ? <span class="muted"> {block.mimeType}</span> : null}
          {block.description ? <p class="hint">{block.description}</p> : null}
        </div>
      );
    case "resource":
      return (
        <div class="block resource">
          <span class="kind">resource</span> <code>{block.resource.uri}</code>
          {block.resource.mimeType ? <span class="muted"> {block.resource.mimeType}</span> : null}
          {block.resource.text !== undefined ? (
            <pre>{block.resource.text}</pre>
          ) : (
            <p class="muted">{Math.round(((block.resource.blob ?? "").length * 3) / 4)} bytes</p>
          )}
        </div>
      );
    default:
      return <pre class="block">{JSON.stringify(block)}</pre>;
  }
}

/**
 * Text shown whole when short; past 30 lines folded, with its length said, and only put on
 * the page once opened (a result of thousands of lines would otherwise crowd out the rest).
 */
function Folded({
  label,
  text,
  preClass,
  class: className,
  bareWhenShort = false,
}: {
  label: string;
  text: string;
  preClass: string;
  class?: string;
  /** Short text is shown as it is, with no summary line over it (a text block). */
  bareWhenShort?: boolean;
}) {
  const lines = text.split("\n").length;
  const [open, setOpen] = useState(lines <= FOLD_LINES);
  if (lines <= FOLD_LINES && bareWhenShort) return <pre class={preClass}>{text}</pre>;
  return (
    <details
      class={className}
      open={open}
      data-testid={lines > FOLD_LINES ? "folded" : undefined}
      onToggle={(event) => setOpen((event.currentTarget as HTMLDetailsElement).open)}
    >
      <summary>
        {label}
        {lines > FOLD_LINES ? ` (${lines} lines, folded)` : ""}
      </summary>
      {open ? <pre class={preClass}>{text}</pre> : null}
    </details>
  );
}
