import { findToolPairingProblems } from '@ctx/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aiSdkCodec } from './ai-sdk-codec.js';
import { promptArbitrary as prompt } from './test-support/ai-sdk-prompt-arbitraries.js';
import { validateAiSdkMessages } from './validate-ai-sdk-messages.js';
import { propertyRuns } from '@ctx/test-properties';

describe('aiSdkCodec (properties)', () => {
  it('should round-trip every generated prompt exactly, without touching the input', () => {
    fc.assert(
      fc.property(prompt, (input) => {
        const before = structuredClone(input);
        const { conversation } = aiSdkCodec.decode(input);
        expect(input).toEqual(before);
        expect(aiSdkCodec.encode(conversation).value).toEqual(input);
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it('should decode valid prompts into pair-valid histories and encode them back to valid prompts', () => {
    fc.assert(
      fc.property(prompt, (input) => {
        fc.pre(input.messages.length > 0);
        expect(validateAiSdkMessages(input)).toEqual([]);
        const { conversation } = aiSdkCodec.decode(input);
        expect(findToolPairingProblems(conversation.history)).toEqual([]);
      }),
      { numRuns: propertyRuns(200) },
    );
  });
});
