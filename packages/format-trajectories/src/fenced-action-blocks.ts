import { isJsonObject, type ContentBlock, type FormatWarning, type JsonValue, type ToolCallBlock } from '@ctx/core';
import type { FencedActionSpan } from './find-fenced-actions.js';
import { readTrajectoryMetadata, trajectoryKey } from './trajectory-metadata.js';

/** The tool name every text action gets: the agents run it in a shell. */
export const textActionToolName = 'bash';

/**
 * Splits a model message with one fenced action into `[text (thought)?, tool_call, text (after the block)?]`.
 *
 * The thought is the text before the block with trailing whitespace removed, the text after the block loses its
 * leading whitespace, and the call's parameters are `{ command }`. Everything in between — blank lines, the fences,
 * whitespace around the command — goes to the call's `providerMetadata.trajectory` as `opening` and `closing`, so
 * {@link renderFencedAction} gives back the exact message.
 *
 * @param content - The message text.
 * @param span - Where the action is (see `findMiniSweAgentActions`, `findSweAgentAction`).
 * @param callId - A deterministic id for the call, unique in the conversation.
 * @returns The blocks of the `ai` entry.
 */
export function splitFencedAction(content: string, span: FencedActionSpan, callId: string): ContentBlock[] {
  const thought = content.slice(0, span.fenceStart).trimEnd();
  const after = content.slice(span.fenceEnd).trimStart();
  const call: ToolCallBlock = {
    type: 'tool_call',
    id: callId,
    name: textActionToolName,
    parameters: { command: content.slice(span.commandStart, span.commandEnd) },
    providerMetadata: {
      [trajectoryKey]: {
        opening: content.slice(thought.length, span.commandStart),
        closing: content.slice(span.commandEnd, content.length - after.length),
      },
    },
  };
  const blocks: ContentBlock[] = [];
  if (thought !== '') blocks.push({ type: 'text', text: thought });
  blocks.push(call);
  if (after !== '') blocks.push({ type: 'text', text: after });
  return blocks;
}

/** How a text-action agent writes a code block when no recorded layout says otherwise. */
export interface FenceStyle {
  /** The opening fence line, e.g. ```` ```bash\n ````. */
  readonly opening: string;
  /** The closing fence, e.g. ```` \n``` ````. */
  readonly closing: string;
}

function commandOf(call: ToolCallBlock, path: string, warnings: FormatWarning[]): string {
  const { parameters } = call;
  if (isJsonObject(parameters) && typeof parameters.command === 'string') return parameters.command;
  if (typeof parameters === 'string') return parameters;
  warnings.push({
    type: 'lossy',
    path,
    message: `Expected the ${call.name} call's parameters to be { command: string }; wrote them as JSON in the code block`,
  });
  return JSON.stringify(parameters);
}

function layoutOf(call: ToolCallBlock, key: 'opening' | 'closing'): string | undefined {
  const value: JsonValue | undefined = readTrajectoryMetadata(call.providerMetadata)?.[key];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Writes an `ai` entry back as a text-action message: text blocks as they are, each tool call as a fenced command.
 * Exact for blocks made by {@link splitFencedAction}; entries from elsewhere get blank lines between parts and
 * `style`'s fences. Thinking and media blocks cannot be written in a text message and are reported as lossy.
 *
 * @param blocks - The entry's blocks.
 * @param style - Fences for calls without a recorded layout.
 * @param path - Where the entry is, for warnings, e.g. `history[4]`.
 * @returns The message text and what could not be written.
 */
export function renderFencedAction(
  blocks: readonly ContentBlock[],
  style: FenceStyle,
  path: string,
): { readonly content: string; readonly warnings: FormatWarning[] } {
  const warnings: FormatWarning[] = [];
  let content = '';
  // Whether the text so far ends with a recorded closing (which already holds the gap before the next text).
  let afterRecordedCall = false;
  blocks.forEach((block, index) => {
    const blockPath = `${path}.blocks[${index}]`;
    if (block.type === 'text') {
      content += content === '' || afterRecordedCall ? block.text : `\n\n${block.text}`;
      afterRecordedCall = false;
    } else if (block.type === 'tool_call') {
      const opening = layoutOf(block, 'opening') ?? (content === '' ? style.opening : `\n\n${style.opening}`);
      const closing = layoutOf(block, 'closing');
      content += opening + commandOf(block, blockPath, warnings) + (closing ?? style.closing);
      afterRecordedCall = closing !== undefined;
    } else {
      warnings.push({
        type: 'lossy',
        path: blockPath,
        message: `Dropped a ${block.type} block: a text-action message holds only text`,
      });
    }
  });
  return { content, warnings };
}
