import type { ContentBlock, HistoryEntry } from '@ctx/core';

/**
 * Renders entries as the plain-text transcript a summarizer model reads: one paragraph per entry, headed by its
 * speaker (`human:`, `ai:`, `tool:`). Tool calls become `[called tool X with {…}]`, tool results
 * `[tool X returned: …]`, media `[image: image/png]`. Thinking blocks are left out: they are the model's scratch work,
 * often redacted, and a summary of the conversation does not need them. An entry with nothing left to show is skipped.
 *
 * @param entries - The entries to render, oldest first.
 * @returns The transcript; empty when no entry has anything to show.
 *
 * @example
 * ```ts
 * renderTranscript([{ speaker: 'human', blocks: [{ type: 'text', text: 'Fix the test' }] }]);
 * // 'human: Fix the test'
 * ```
 */
export function renderTranscript(entries: readonly HistoryEntry[]): string {
  const paragraphs: string[] = [];
  for (const entry of entries) {
    const lines = entry.blocks.map(renderBlock).filter((line): line is string => line !== undefined);
    if (lines.length > 0) paragraphs.push(`${entry.speaker}: ${lines.join('\n')}`);
  }
  return paragraphs.join('\n\n');
}

function renderBlock(block: ContentBlock): string | undefined {
  switch (block.type) {
    case 'text':
      return block.text.trim() === '' ? undefined : block.text;
    case 'thinking':
      return undefined;
    case 'tool_call':
      return `[called tool ${block.name} with ${JSON.stringify(block.parameters)}]`;
    case 'tool_response': {
      const result = typeof block.result === 'string' ? block.result : JSON.stringify(block.result);
      return `[tool ${block.toolName} ${block.isError === true ? 'failed' : 'returned'}: ${result}]`;
    }
    case 'media': {
      const kind = /^(image|audio|video)\//.exec(block.mediaType)?.[1] ?? 'file';
      return `[${kind}: ${block.mediaType}${block.filename === undefined ? '' : ` ${block.filename}`}]`;
    }
  }
}
