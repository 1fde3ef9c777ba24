import { findToolPairingProblems, parseHistory } from '@ctx/core';
import { findLoneSurrogates } from '@ctx/format-utils';
import { deepFreeze, withLoneSurrogates } from '@ctx/format-utils/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anthropicMessagesCodec } from './anthropic-messages-codec.js';
import { anthropicRequest, foreignHistory } from './test-support/anthropic-arbitraries.js';
import { validateAnthropicRequest } from './validate-anthropic-request.js';
import { propertyRuns } from '@ctx/test-properties';

describe('anthropicMessagesCodec (properties)', () => {
  it('should give every generated request back exactly, without writing to it', () => {
    fc.assert(
      fc.property(anthropicRequest, (generated) => {
        // structuredClone gives the generated (null-prototype) objects the prototype of parsed JSON.
        const request = structuredClone(generated);
        const input = deepFreeze(structuredClone(request));
        const { conversation } = anthropicMessagesCodec.decode(input);
        expect(anthropicMessagesCodec.encode(conversation).value).toStrictEqual(request);
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it('should encode a pair-valid history from another format as a request the API accepts', () => {
    fc.assert(
      fc.property(foreignHistory, (history) => {
        expect(findToolPairingProblems(history)).toEqual([]);
        const { value } = anthropicMessagesCodec.encode({ history });
        // Generated histories put signed thinking on random turns, not always on the one still in its tool loop:
        // valid as a request with thinking off (with it on, rule tool-loop-thinking applies).
        expect(validateAnthropicRequest({ ...value, thinking: { type: 'disabled' } })).toEqual([]);
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it('should never write a lone surrogate half, and write validated entries (their answers remembered) as plain ones', () => {
    fc.assert(
      fc.property(foreignHistory, fc.array(fc.nat(), { maxLength: 3 }), (history, picks) => {
        const damaged = withLoneSurrogates(history, picks);
        const plain = anthropicMessagesCodec.encode({ history: damaged });
        expect(findLoneSurrogates(plain.value)).toEqual([]);
        const validated = { history: parseHistory(damaged) };
        expect(anthropicMessagesCodec.encode(validated)).toStrictEqual(plain);
        expect(anthropicMessagesCodec.encode(validated)).toStrictEqual(plain);
      }),
      { numRuns: propertyRuns(200) },
    );
  });

  it('should encode deterministically', () => {
    fc.assert(
      fc.property(anthropicRequest, (request) => {
        const { conversation } = anthropicMessagesCodec.decode(request);
        expect(anthropicMessagesCodec.encode(conversation)).toStrictEqual(anthropicMessagesCodec.encode(conversation));
      }),
      { numRuns: propertyRuns(50) },
    );
  });
});
