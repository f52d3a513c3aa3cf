import type Anthropic from "@anthropic-ai/sdk";

/** One content block as the API sent it, completed by its deltas. */
export type ReceivedBlock = Anthropic.ContentBlock;

/** A block's JSON input as it arrived in `input_json_delta` pieces. */
interface PendingInput {
  json: string;
}

/**
 * The content of one streamed message, rebuilt block by block from `content_block_start` and
 * its deltas, in the order the API sent it. Blocks the kernel has no place for (server tool
 * calls, search results) go back to the API exactly like this on the next request, which is
 * what the API requires of them and of signed thinking blocks.
 */
export class ReceivedContent {
  private readonly blocks: ReceivedBlock[] = [];
  private readonly inputs = new Map<number, PendingInput>();

  start(index: number, block: ReceivedBlock): void {
    this.blocks[index] = structuredClone(block);
    if ("input" in block) this.inputs.set(index, { json: "" });
  }

  delta(index: number, delta: Anthropic.RawContentBlockDelta): void {
    const block = this.blocks[index];
    if (!block) return;
    switch (delta.type) {
      case "text_delta":
        if (block.type === "text") block.text += delta.text;
        break;
      case "citations_delta":
        if (block.type === "text") block.citations = [...(block.citations ?? []), delta.citation];
        break;
      case "thinking_delta":
        if (block.type === "thinking") block.thinking += delta.thinking;
        break;
      case "signature_delta":
        if (block.type === "thinking") block.signature += delta.signature;
        break;
      case "input_json_delta": {
        const input = this.inputs.get(index);
        if (input) input.json += delta.partial_json;
        break;
      }
    }
  }

  /**
   * The block is complete. Returns it, with the raw JSON of its input when one streamed (a
   * tool call's arguments, kept raw when broken so the registry can say so).
   */
  stop(index: number): { block: ReceivedBlock; json: string | undefined } | undefined {
    const block = this.blocks[index];
    if (!block) return undefined;
    const input = this.inputs.get(index);
    this.inputs.delete(index);
    if (!input || input.json.trim() === "") return { block, json: undefined };
    if ("input" in block) block.input = objectInput(input.json);
    return { block, json: input.json };
  }

  /** Every block, in order. */
  get all(): readonly ReceivedBlock[] {
    return this.blocks.filter(Boolean);
  }

  /** The block a server tool's result answers (its `tool_use_id`). */
  serverCall(id: string): Anthropic.ServerToolUseBlock | undefined {
    return this.blocks.find(
      (block): block is Anthropic.ServerToolUseBlock =>
        block?.type === "server_tool_use" && block.id === id,
    );
  }

  /** Whether a server tool ran in this message (its blocks must go back as they came). */
  get hasServerBlocks(): boolean {
    return this.blocks.some((block) => block !== undefined && isServerBlock(block));
  }
}

/** Blocks of a tool the API runs itself: a call and its result. */
export function isServerBlock(block: { type: string }): boolean {
  return block.type === "server_tool_use" || block.type.endsWith("_tool_result");
}

/**
 * The input the API holds for the block. JSON the stream broke is kept visible as the value of
 * one field, as a rebuilt `tool_use` shows it, since the API takes only objects back.
 */
function objectInput(json: string): unknown {
  try {
    const parsed: unknown = JSON.parse(json);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed;
    return { _invalid_arguments: parsed };
  } catch {
    return { _invalid_arguments: json };
  }
}
