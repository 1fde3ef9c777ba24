import { findToolPairingProblems, parseConversation } from '@ctx/core';
import { describe, expect, it } from 'vitest';
import { claudeCodeLikeConversation, parallelSameFunctionConversation } from './cross-format-conversations.js';

describe('cross-format sample conversations', () => {
  it('should be valid, pair-valid canonical conversations', () => {
    for (const conversation of [claudeCodeLikeConversation, parallelSameFunctionConversation]) {
      expect(parseConversation(conversation)).toEqual(conversation);
      expect(findToolPairingProblems(conversation.history)).toEqual([]);
    }
  });

  it('should carry what other formats lose: thinking with a signature, a redacted thought, an image, metadata', () => {
    const blocks = claudeCodeLikeConversation.history.flatMap((entry) => entry.blocks);
    expect(blocks.some((block) => block.type === 'thinking' && block.signature !== undefined)).toBe(true);
    expect(blocks.some((block) => block.type === 'thinking' && block.redacted === true)).toBe(true);
    expect(blocks.some((block) => block.type === 'media')).toBe(true);
    expect(blocks.some((block) => block.providerMetadata !== undefined)).toBe(true);
    expect(claudeCodeLikeConversation.history.some((entry) => entry.metadata !== undefined)).toBe(true);
  });
});
