import type { HistoryEntry, ToolCallBlock } from '@ctx/core';
import { classifyToolResult, toolResultText } from '@ctx/strategy-utils';
import type { RetainedContent } from './retained-content.js';
import { quoteExcerpt, RetentionTally, type RetentionMeasure } from './retention-measure.js';

/**
 * Error retention: every tool result of `before` that reports a failure (`classifyToolResult` from
 * `@ctx/strategy-utils`: the error flag, harness error markers, non-zero exit codes) must still be in `after`,
 * answering the same call id with the same result.
 *
 * @param before - The original history.
 * @param retained - What `after` holds.
 * @returns The measure; missing items name their entry in `before`, the tool and the start of the error.
 */
export function measureErrors(before: readonly HistoryEntry[], retained: RetainedContent): RetentionMeasure {
  const calls = new Map<string, ToolCallBlock>();
  const tally = new RetentionTally();
  before.forEach((entry, entryIndex) => {
    for (const block of entry.blocks) {
      if (block.type === 'tool_call') {
        calls.set(block.id, block);
        continue;
      }
      if (block.type !== 'tool_response') continue;
      if (classifyToolResult(block, calls.get(block.callId)).outcome !== 'error') continue;
      if (retained.hasResponse(block.callId, block.result)) {
        tally.keep();
      } else {
        const toolName = block.toolName === '' ? (calls.get(block.callId)?.name ?? 'tool') : block.toolName;
        tally.lose(() => `entry ${entryIndex}: ${toolName} error (call ${block.callId}) ${quoteExcerpt(toolResultText(block.result))}`);
      }
    }
  });
  return tally.toMeasure();
}
