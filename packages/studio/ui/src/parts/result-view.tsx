import type { ContentBlock, ToolResult } from "../types.js";

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
        <details open class="structured">
          <summary>structured content</summary>
          <pre class="mono">{JSON.stringify(result.structured, null, 2)}</pre>
        </details>
      ) : null}
    </div>
  );
}

function Block({ block }: { block: ContentBlock }) {
  switch (block.type) {
    case "text":
      return <pre class="block text">{block.text}</pre>;
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
