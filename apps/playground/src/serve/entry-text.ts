import type { ContentBlock, HistoryEntry } from '@ctx/core';

function blockText(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'tool_call':
      return `▸ ${block.name}(${JSON.stringify(block.parameters)})`;
    case 'tool_response': {
      const result = typeof block.result === 'string' ? block.result : JSON.stringify(block.result, null, 2);
      return `◂ ${block.toolName}${block.isError === true ? ' (error)' : ''}: ${result}`;
    }
    case 'thinking':
      return block.redacted === true ? '[redacted thinking]' : `[thinking] ${block.thought}`;
    case 'media':
      return `[${block.mediaType}${block.filename === undefined ? '' : ` ${block.filename}`}]`;
  }
}

/**
 * An entry's content as the page shows it: text as it is, tool calls as `▸ name(parameters)`, tool results as
 * `◂ tool: result`, thinking and media marked. Blocks are separated by a blank line.
 */
export function entryText(entry: HistoryEntry): string {
  return entry.blocks.map(blockText).join('\n\n');
}
