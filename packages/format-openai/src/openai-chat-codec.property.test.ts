import { findToolPairingProblems, parseHistory } from '@ctx/core';
import { findLoneSurrogates } from '@ctx/format-utils';
import { deepFreeze, withLoneSurrogates } from '@ctx/format-utils/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openAIChatCodec } from './openai-chat-codec.js';
import { foreignHistory, openAIRequest } from './test-support/openai-arbitraries.js';
import { validateOpenAIRequest } from './validate-openai-request.js';
import { propertyRuns } from '@ctx/test-properties';

describe('openAIChatCodec (properties)', () => {
  it('should give every generated request back exactly, without writing to it', () => {
    fc.assert(
      fc.property(openAIRequest, (generated) => {
        // structuredClone gives the generated (null-prototype) objects the prototype of parsed JSON.
        const request = structuredClone(generated);
        const { conversation } = openAIChatCodec.decode(deepFreeze(structuredClone(request)));
        expect(openAIChatCodec.encode(conversation).value).toStrictEqual(request);
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it('should give every call of a decoded request an id no other call of the history has', () => {
    fc.assert(
      fc.property(openAIRequest, (generated) => {
        // What HistoryService.add requires: ids reused across turns and ids made up for legacy function calls included.
        const { history } = openAIChatCodec.decode(structuredClone(generated)).conversation;
        const ids = history.flatMap((entry) => entry.blocks.flatMap((block) => (block.type === 'tool_call' ? [block.id] : [])));
        expect(new Set(ids).size).toBe(ids.length);
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it('should encode a pair-valid history from another format as a request the API accepts', () => {
    fc.assert(
      fc.property(foreignHistory, (history) => {
        expect(findToolPairingProblems(history)).toEqual([]);
        expect(validateOpenAIRequest(openAIChatCodec.encode({ history }).value)).toEqual([]);
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  it('should never write a lone surrogate half, and write validated entries (their answers remembered) as plain ones', () => {
    fc.assert(
      fc.property(foreignHistory, fc.array(fc.nat(), { maxLength: 3 }), (history, picks) => {
        const damaged = withLoneSurrogates(history, picks);
        const plain = openAIChatCodec.encode({ history: damaged });
        expect(findLoneSurrogates(plain.value)).toEqual([]);
        const validated = { history: parseHistory(damaged) };
        expect(openAIChatCodec.encode(validated)).toStrictEqual(plain);
        expect(openAIChatCodec.encode(validated)).toStrictEqual(plain);
      }),
      { numRuns: propertyRuns(200) },
    );
  });
});
